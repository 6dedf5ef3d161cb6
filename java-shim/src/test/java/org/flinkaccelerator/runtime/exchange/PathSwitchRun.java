package org.flinkaccelerator.runtime.exchange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;

/**
 * A keyed operator's input switching between the per-row and the batch exchange across
 * checkpoints, as a job switching {@code accelerator.exchange.batched.enabled} between savepoints
 * does: per-row at parallelism 1, checkpoint, batched at 2 (restored from it), checkpoint, per-row
 * at 3 (restored from both batched subtasks). Watermarks reach every subtask.
 */
public final class PathSwitchRun {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private PathSwitchRun() {}

    /**
     * The output rows of the three runs (without watermarks, which every subtask forwards), sorted,
     * over the first, second and last third of {@code events}; {@code perRow} and {@code batched}
     * make the operator reading rows and batch records, {@code spec} is the one they share.
     */
    public static <E> List<String> rows(StockKeyedOperator stock, ChangelogSpec spec,
            Supplier<OneInputStreamOperator<RowData, RowData>> perRow,
            Supplier<OneInputStreamOperator<RowData, RowData>> batched, List<E> events,
            Function<E, ExchangeRecords.Input> input, RescaledRun.Feed<E> feed) throws Exception {
        return rows(stock, spec.batchType(), ExchangeRecords.columns(spec), perRow, batched, events, input, feed);
    }

    /** As above, for an operator whose batch rows are {@code batchType}, their columns after the key group {@code columns}. */
    public static <E> List<String> rows(StockKeyedOperator stock, RowType batchType,
            ExchangeRecords.BatchColumns columns, Supplier<OneInputStreamOperator<RowData, RowData>> perRow,
            Supplier<OneInputStreamOperator<RowData, RowData>> batched, List<E> events,
            Function<E, ExchangeRecords.Input> input, RescaledRun.Feed<E> feed) throws Exception {
        int cut1 = events.size() / 3;
        int cut2 = 2 * events.size() / 3;
        List<String> got = new ArrayList<>();

        OperatorSubtaskState state;
        try (var harness = stock.harness(perRow.get(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            for (E event : events.subList(0, cut1)) {
                feed.feed(harness, event);
            }
            harness.prepareSnapshotPreBarrier(1);
            state = harness.snapshot(1, 1);
            got.addAll(withoutWatermarks(stock, harness));
        }
        List<ExchangeRecords.Input> second = events.subList(cut1, cut2).stream().map(input).toList();
        OperatorSubtaskState[] states = new OperatorSubtaskState[2];
        for (int subtask = 0; subtask < 2; subtask++) {
            try (var harness = stock.harness(batched.get(), MAX_PARALLELISM, 2, subtask)) {
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(state,
                        MAX_PARALLELISM, 1, 2, subtask));
                harness.open();
                for (Object record : ExchangeRecords.records(batchType, columns, stock.keySelector(), MAX_PARALLELISM,
                        second, 2, subtask, 17)) {
                    ExchangeRecords.feed(harness, record);
                }
                harness.prepareSnapshotPreBarrier(2);
                states[subtask] = harness.snapshot(2, 2);
                got.addAll(withoutWatermarks(stock, harness));
            }
        }
        OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(states);
        List<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>> last = new ArrayList<>();
        try {
            for (int subtask = 0; subtask < 3; subtask++) {
                var harness = stock.harness(perRow.get(), MAX_PARALLELISM, 3, subtask);
                last.add(harness);
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                        MAX_PARALLELISM, 2, 3, subtask));
                harness.open();
            }
            for (E event : events.subList(cut2, events.size())) {
                RowData row = input.apply(event).row();
                if (row != null) {
                    feed.feed(last.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(
                            stock.keySelector().getKey(row), MAX_PARALLELISM, 3)), event);
                } else {
                    // A watermark reaches every subtask, as the keyed exchange broadcasts it.
                    for (var harness : last) {
                        feed.feed(harness, event);
                    }
                }
            }
            for (var harness : last) {
                harness.endInput();
                got.addAll(withoutWatermarks(stock, harness));
            }
        } finally {
            for (var harness : last) {
                harness.close();
            }
        }
        Collections.sort(got);
        return got;
    }

    /** {@code lines} of an output without its watermarks, sorted: what the three runs must give together. */
    public static List<String> sortedRows(List<String> lines) {
        List<String> rows = new ArrayList<>(lines.stream().filter(l -> !l.startsWith("watermark")).toList());
        Collections.sort(rows);
        return rows;
    }

    private static List<String> withoutWatermarks(StockKeyedOperator stock,
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness) {
        return WindowAggHarnesses.output(harness, stock.outputType()).stream()
                .filter(l -> !l.startsWith("watermark")).toList();
    }
}
