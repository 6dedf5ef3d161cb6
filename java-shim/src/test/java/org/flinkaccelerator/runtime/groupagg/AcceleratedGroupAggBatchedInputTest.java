package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;
import org.flinkaccelerator.runtime.exchange.BatchParts;
import org.flinkaccelerator.runtime.exchange.BatchRecords;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;

/**
 * The accelerated group aggregate reading a batch exchange's records (each a run of rows as its
 * {@code update} rows, with the key bytes and key groups of Flink's key selector and each row's
 * timestamp) against stock's {@code GroupAggFunction} fed the same rows one by one; and its state
 * across the two inputs: a checkpoint of the per-row operator restored into batched subtasks at
 * another parallelism and back, as a job switching the option between savepoints does.
 */
class AcceleratedGroupAggBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    /** Keys of the types a batch exchange takes: a string (inline and long) and an INT, NULLs among them. */
    private static final String QUERY = "SELECT k1, k2, COUNT(*) AS n, SUM(a) AS sa, MIN(b) AS mib, MAX(a) AS maa,"
            + " AVG(a) AS aa, COUNT(*) FILTER (WHERE b > 0) AS np FROM bids GROUP BY k1, k2";

    private static GroupAggHarnesses.Planned plan() throws Exception {
        return GroupAggHarnesses.plan(QUERY, GroupAggHarnesses.Sink.RETRACT, "");
    }

    private static AcceleratedGroupAggOperator batched(GroupAggSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedGroupAggOperator(new GroupAggSpec(descriptor, spec.inputType(), spec.pythonExecutable()));
    }

    /** The records a batch exchange delivers to subtask {@code subtask} of {@code parallelism} for {@code events}. */
    private static List<Object> records(GroupAggHarnesses.Planned planned, List<GroupAggHarnesses.Event> events,
            int parallelism, int subtask, int rowsPerRecord) throws Exception {
        GroupAggSpec spec = planned.spec();
        List<RowType.RowField> fields = new ArrayList<>(spec.batchType().getFields());
        fields.add(new RowType.RowField(BatchParts.TIMESTAMP, new BigIntType(true)));
        RowType recordType = new RowType(fields);
        int[] columns = spec.columnIndexes();
        List<Object> out = new ArrayList<>();
        List<GenericRowData> pending = new ArrayList<>();
        for (GroupAggHarnesses.Event event : events) {
            if (event.row() == null) {
                flush(recordType, pending, out);
                out.add(new Watermark(event.watermark()));
                continue;
            }
            BinaryRowData key = (BinaryRowData) planned.stock().keySelector().getKey(event.row());
            int group = KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM);
            if (KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(MAX_PARALLELISM, parallelism, group) != subtask) {
                continue;
            }
            GenericRowData row = new GenericRowData(recordType.getFieldCount());
            row.setField(0, BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes()));
            row.setField(1, group);
            for (int i = 0; i < columns.length; i++) {
                LogicalType type = spec.inputType().getTypeAt(columns[i]);
                row.setField(2 + i, RowData.createFieldGetter(type, columns[i]).getFieldOrNull(event.row()));
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

    private static void flush(RowType recordType, List<GenericRowData> rows, List<Object> out) throws Exception {
        if (rows.isEmpty()) {
            return;
        }
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
            out.add(BatchRecords.of(0, bytes.toByteArray()));
        }
        rows.clear();
    }

    private static void feedRecord(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness,
            Object record) throws Exception {
        if (record instanceof Watermark mark) {
            harness.processWatermark(mark);
        } else {
            harness.processElement(new StreamRecord<>((RowData) record));
        }
    }

    @Test
    void sameOutputAsStockFromRecordsOfEverySize() throws Exception {
        GroupAggHarnesses.Planned planned = plan();
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 5, 500);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events, GroupAggHarnesses::feed,
                List.of());
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("-U")), "updates: " + stock);
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<String> batched = planned.stock().outputOf(batched(planned.spec()),
                    records(planned, events, 1, 0, rowsPerRecord), AcceleratedGroupAggBatchedInputTest::feedRecord,
                    List.of());
            assertEquals(stock, batched, rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * (without watermarks, which every subtask forwards) are stock's, as a multiset.
     */
    @Test
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism() throws Exception {
        GroupAggHarnesses.Planned planned = plan();
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 11, 600);
        List<String> expected = rows(planned.stock().outputOf(planned.stock().newStock(), events,
                GroupAggHarnesses::feed, List.of()));
        List<GroupAggHarnesses.Event> first = events.subList(0, 200);
        List<GroupAggHarnesses.Event> second = events.subList(200, 400);
        List<GroupAggHarnesses.Event> third = events.subList(400, events.size());
        List<String> got = new ArrayList<>();

        // Per-row input, one subtask.
        OperatorSubtaskState state;
        try (var harness = planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            GroupAggHarnesses.feed(harness, first);
            harness.prepareSnapshotPreBarrier(1);
            state = harness.snapshot(1, 1);
            got.addAll(rows(output(planned, harness)));
        }
        // Batched input, two subtasks restored from it.
        OperatorSubtaskState[] states = new OperatorSubtaskState[2];
        for (int subtask = 0; subtask < 2; subtask++) {
            try (var harness = planned.stock().harness(batched(planned.spec()), MAX_PARALLELISM, 2, subtask)) {
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(state,
                        MAX_PARALLELISM, 1, 2, subtask));
                harness.open();
                for (Object record : records(planned, second, 2, subtask, 17)) {
                    feedRecord(harness, record);
                }
                harness.prepareSnapshotPreBarrier(2);
                states[subtask] = harness.snapshot(2, 2);
                got.addAll(rows(output(planned, harness)));
            }
        }
        // Per-row input again, three subtasks restored from the batched ones.
        OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(states);
        List<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>> last = new ArrayList<>();
        try {
            for (int subtask = 0; subtask < 3; subtask++) {
                var harness = planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 3, subtask);
                last.add(harness);
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                        MAX_PARALLELISM, 2, 3, subtask));
                harness.open();
            }
            for (GroupAggHarnesses.Event event : third) {
                if (event.row() != null) {
                    RowData key = planned.stock().keySelector().getKey(event.row());
                    GroupAggHarnesses.feed(last.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(key,
                            MAX_PARALLELISM, 3)), event);
                }
            }
            for (var harness : last) {
                harness.endInput();
                got.addAll(rows(output(planned, harness)));
            }
        } finally {
            for (var harness : last) {
                harness.close();
            }
        }
        Collections.sort(expected);
        Collections.sort(got);
        assertEquals(expected, got);
    }

    private static List<String> output(GroupAggHarnesses.Planned planned,
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness) {
        return org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses.output(harness,
                planned.stock().outputType());
    }

    private static List<String> rows(List<String> lines) {
        return new ArrayList<>(lines.stream().filter(l -> !l.startsWith("watermark")).toList());
    }

}
