package org.flinkaccelerator.runtime.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accelerated deduplication reading a batch exchange's records (each a run of rows as its
 * {@code update} rows, with the key bytes and key groups of Flink's key selector and each row's
 * record timestamp) against stock's deduplicate function fed the same rows one by one; and its
 * state across the two inputs: a checkpoint of the per-row operator restored into batched subtasks
 * at another parallelism and back, as a job switching the option between savepoints does.
 */
class AcceleratedDedupBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private static AcceleratedDedupOperator batched(DedupSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedDedupOperator(new DedupSpec(descriptor, spec.inputType(), spec.pythonExecutable()));
    }

    private static List<Object> records(DedupHarnesses.Planned planned, List<DedupHarnesses.Event> events,
            int parallelism, int subtask, int rowsPerRecord) throws Exception {
        return ExchangeRecords.records(planned.spec(), planned.stock().keySelector(), MAX_PARALLELISM,
                events.stream().map(e -> new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark())).toList(),
                parallelism, subtask, rowsPerRecord);
    }

    /** First row and last row on processing time, last row on event time (Nexmark q18's). */
    @ParameterizedTest
    @ValueSource(strings = {"pt ASC", "pt DESC", "ts DESC"})
    void sameOutputAsStockFromRecordsOfEverySize(String order) throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 5, 500, 40);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events, DedupHarnesses::feed,
                List.of());
        assertEquals(!order.equals("pt ASC"), stock.stream().anyMatch(l -> l.startsWith("-U")), "updates: " + stock);
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<String> batched = planned.stock().outputOf(batched(planned.spec()),
                    records(planned, events, 1, 0, rowsPerRecord), ExchangeRecords::feed, List.of());
            assertEquals(stock, batched, rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * (without watermarks, which every subtask forwards) are stock's, as a multiset.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pt ASC", "ts DESC"})
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism(String order) throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 11, 600, 50);
        List<String> expected = rows(planned.stock().outputOf(planned.stock().newStock(), events,
                DedupHarnesses::feed, List.of()));
        List<DedupHarnesses.Event> first = events.subList(0, 200);
        List<DedupHarnesses.Event> second = events.subList(200, 400);
        List<DedupHarnesses.Event> third = events.subList(400, events.size());
        List<String> got = new ArrayList<>();

        // Per-row input, one subtask.
        OperatorSubtaskState state;
        try (var harness = planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            first.forEach(e -> feed(harness, e));
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
                    ExchangeRecords.feed(harness, record);
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
            for (DedupHarnesses.Event event : third) {
                if (event.row() != null) {
                    RowData key = planned.stock().keySelector().getKey(event.row());
                    feed(last.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(key, MAX_PARALLELISM, 3)),
                            event);
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

    private static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness,
            DedupHarnesses.Event event) {
        try {
            DedupHarnesses.feed(harness, event);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> output(DedupHarnesses.Planned planned,
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness) {
        return WindowAggHarnesses.output(harness, planned.stock().outputType());
    }

    private static List<String> rows(List<String> lines) {
        return new ArrayList<>(lines.stream().filter(l -> !l.startsWith("watermark")).toList());
    }
}
