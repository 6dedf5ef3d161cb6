package org.flinkaccelerator.runtime.exchange;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;
import org.flinkaccelerator.runtime.state.ChangelogSpec;

/**
 * The records a batch exchange delivers to one subtask of a keyed operator, built from the rows
 * Flink's own key selector and {@link KeyGroupRangeAssignment} route there: each record a run of
 * the operator's {@code update} rows (key bytes, key group, its columns) with each row's
 * timestamp, watermarks between them where the input had them.
 */
public final class ExchangeRecords {
    /** One input event: a row with or without a record timestamp, or (row null) a watermark. */
    public record Input(RowData row, Long timestamp, Long watermark) {}

    private ExchangeRecords() {}

    /** The values of an input row's batch row after {@code $key} and {@code $key_group}, as its operator writes them. */
    @FunctionalInterface
    public interface BatchColumns {
        Object[] of(RowData row);
    }

    /** The batch columns of a {@link ChangelogSpec}'s operator: the input columns the spec names. */
    public static BatchColumns columns(ChangelogSpec spec) {
        int[] indexes = spec.columnIndexes();
        return row -> {
            Object[] values = new Object[indexes.length];
            for (int i = 0; i < indexes.length; i++) {
                LogicalType type = spec.inputType().getTypeAt(indexes[i]);
                values[i] = RowData.createFieldGetter(type, indexes[i]).getFieldOrNull(row);
            }
            return values;
        };
    }

    /**
     * The records subtask {@code subtask} of {@code parallelism} receives for {@code events}: at most
     * {@code rowsPerRecord} rows each, cut at every watermark.
     */
    public static List<Object> records(ChangelogSpec spec, KeySelector<RowData, RowData> keySelector,
            int maxParallelism, List<Input> events, int parallelism, int subtask, int rowsPerRecord) throws Exception {
        return records(spec.batchType(), columns(spec), keySelector, maxParallelism, events, parallelism, subtask,
                rowsPerRecord);
    }

    /** As above, for an operator whose batch rows are {@code batchType}, their columns after the key group {@code columns}. */
    public static List<Object> records(RowType batchType, BatchColumns columns, KeySelector<RowData, RowData> keySelector,
            int maxParallelism, List<Input> events, int parallelism, int subtask, int rowsPerRecord) throws Exception {
        List<RowType.RowField> fields = new ArrayList<>(batchType.getFields());
        fields.add(new RowType.RowField(BatchParts.TIMESTAMP, new BigIntType(true)));
        RowType recordType = new RowType(fields);
        List<Object> out = new ArrayList<>();
        List<GenericRowData> pending = new ArrayList<>();
        for (Input event : events) {
            if (event.row() == null) {
                flush(recordType, pending, out);
                out.add(new Watermark(event.watermark()));
                continue;
            }
            BinaryRowData key = (BinaryRowData) keySelector.getKey(event.row());
            int group = KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
            if (KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxParallelism, parallelism, group) != subtask) {
                continue;
            }
            GenericRowData row = new GenericRowData(recordType.getFieldCount());
            row.setField(0, BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes()));
            row.setField(1, group);
            Object[] values = columns.of(event.row());
            for (int i = 0; i < values.length; i++) {
                row.setField(2 + i, values[i]);
            }
            row.setField(recordType.getFieldCount() - 1, event.timestamp());
            pending.add(row);
            if (pending.size() == rowsPerRecord) {
                flush(recordType, pending, out);
            }
        }
        flush(recordType, pending, out);
        return out;
    }

    /** Feeds one of {@link #records}' records (a batch record or a watermark). */
    public static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Object record)
            throws Exception {
        if (record instanceof Watermark mark) {
            harness.processWatermark(mark);
        } else {
            harness.processElement(new StreamRecord<>((RowData) record));
        }
    }

    private static void flush(RowType recordType, List<GenericRowData> rows, List<Object> out) throws Exception {
        if (rows.isEmpty()) {
            return;
        }
        out.add(batchRecord(recordType, rows));
        rows.clear();
    }

    /** The batch record of {@code rows} ({@code recordType}: the update rows' fields, then {@link BatchParts#TIMESTAMP}). */
    public static RowData batchRecord(RowType recordType, List<? extends RowData> rows) throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = RowDataArrowWriter.createRoot(recordType, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(recordType, root);
            rows.forEach(writer::write);
            writer.finish();
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ArrowStreamWriter ipc = new ArrowStreamWriter(root, null, Channels.newChannel(bytes))) {
                ipc.start();
                ipc.writeBatch();
                ipc.end();
            }
            return BatchRecords.of(0, bytes.toByteArray());
        }
    }
}
