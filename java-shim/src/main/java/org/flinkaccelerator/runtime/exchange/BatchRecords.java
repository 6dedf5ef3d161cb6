package org.flinkaccelerator.runtime.exchange;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;

/**
 * The record a batch exchange carries: the target subtask ({@code $channel}) of every row in it,
 * and those rows as one Arrow IPC stream ({@code $batch}). Flink ships it as any RowData, with the
 * serializer of {@link #TYPE}; {@link BatchChannelPartitioner} sends it to its channel.
 */
public final class BatchRecords {
    public static final String CHANNEL = "$channel";
    public static final String BATCH = "$batch";
    public static final RowType TYPE = RowType.of(
            new org.apache.flink.table.types.logical.LogicalType[] {new IntType(false),
                new VarBinaryType(false, VarBinaryType.MAX_LENGTH)},
            new String[] {CHANNEL, BATCH});

    private BatchRecords() {}

    public static RowData of(int channel, byte[] arrowStream) {
        return GenericRowData.of(channel, arrowStream);
    }

    public static int channel(RowData record) {
        return record.getInt(0);
    }

    public static byte[] arrowStream(RowData record) {
        return record.getBinary(1);
    }
}
