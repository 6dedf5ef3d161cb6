package org.flinkaccelerator.runtime;

import java.util.function.IntFunction;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * Emits the Kafka messages of a sidecar answer to a sink's raw twin: per message one new row of
 * {@link #row the written row} (the value bytes, the key bytes when the sink writes keys, the
 * written metadata), of the change kind its caller gives it, without a record timestamp (the Kafka
 * writer takes a record's timestamp only from a written {@code timestamp} column). Used by every
 * operator that writes messages: a segment's and an encode stage's {@link AcceleratedOperator}, and a
 * keyed operator whose stage encodes its sink's messages itself (an encoding fused into it).
 */
public final class EncodedMessages {
    private final String operatorName;
    private final int writtenArity;
    private final boolean writesKeys;
    private final WrittenColumns.Reader writtenMetadata;
    private final StreamRecord<RowData> outRecord = new StreamRecord<>(null);

    /** @param written the row emitted per message ({@link #row}) */
    public EncodedMessages(String operatorName, RowType written) {
        this.operatorName = operatorName;
        this.writtenArity = written.getFieldCount();
        this.writesKeys = WrittenColumns.messageFields(written) > 1;
        this.writtenMetadata = new WrittenColumns.Reader(written);
    }

    /**
     * The row emitted per message for a stage that writes messages, from its descriptor's output
     * fields: value bytes, key bytes when the sink writes keys, then the written Kafka metadata.
     */
    public static RowType row(String descriptorJson) {
        return WrittenColumns.row(descriptorJson);
    }

    /** Emits one row per message of {@code answer}, message i of change kind {@code kinds.apply(i)}. */
    public void emit(VectorSchemaRoot answer, IntFunction<RowKind> kinds, Output<StreamRecord<RowData>> output) {
        VarBinaryVector values = (VarBinaryVector) answer.getVector(ValueBatch.VALUE);
        if (values == null) {
            throw new SidecarException(operatorName + ": the sidecar's answer has no '" + ValueBatch.VALUE
                    + "' column: " + answer.getSchema());
        }
        VarBinaryVector keys = writesKeys ? (VarBinaryVector) answer.getVector(ValueBatch.KEY) : null;
        if (writesKeys && keys == null) {
            throw new SidecarException(operatorName + ": the sidecar's answer has no '" + ValueBatch.KEY
                    + "' column: " + answer.getSchema());
        }
        ArrowRowBatch metadata;
        try {
            metadata = writtenMetadata.isEmpty() ? null : writtenMetadata.view(answer);
        } catch (IllegalArgumentException e) {
            throw new SidecarException(operatorName + ": the sidecar's answer cannot be read: " + e.getMessage(), e);
        }
        for (int i = 0; i < answer.getRowCount(); i++) {
            // A new row per message, never touched again: the edge to the sink hands it over
            // uncopied (HandedOverRowTypeInfo), so it must not be reused.
            GenericRowData row = new GenericRowData(writtenArity);
            row.setRowKind(kinds.apply(i));
            row.setField(0, values.get(i));
            if (keys != null) {
                row.setField(1, keys.get(i));
            }
            if (metadata != null) {
                writtenMetadata.copy(metadata, i, row);
            }
            output.collect(outRecord.replace(row));
        }
    }
}
