package org.flinkaccelerator.runtime.groupwindow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RegisteredMetrics;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's group window aggregate ({@code AggregateWindowOperator}) and the accelerated one,
 * planned from the same SQL (TUMBLE, HOP and SESSION; COUNT, SUM, MIN, MAX, AVG and a FILTER; the
 * window's start, end and rowtime), on the same random streams (out-of-order rowtimes, sessions
 * that merge, late rows, watermarks that do not advance) in Flink's keyed operator harness: the
 * output sequences (records with their timestamps, Flink's binary rows, watermarks) must be equal,
 * for batches of one row, of a few and of thousands, checkpoint barriers at random points, a
 * restore after 1 -> 1, 2 -> 1 and 2 -> 3 subtasks, and on RocksDB; the late rows counted are
 * those stock counts, and every metric stock registers is registered.
 */
class AcceleratedGroupWindowOperatorTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    private static final String[] WINDOWS = {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP,
            GroupWindowHarnesses.SESSION};

    private static List<String> run(GroupWindowHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<GroupWindowHarnesses.Event> events,
            List<Integer> barriers) throws Exception {
        return planned.stock().outputOf(operator, events, GroupWindowHarnesses::feed, barriers);
    }

    @ParameterizedTest
    @ValueSource(strings = {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP, GroupWindowHarnesses.SESSION})
    void sameOutputAsStockForBatchesOfEverySize(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 3, 1_500);
        OneInputStreamOperator<RowData, RowData> stockOperator = planned.stock().newStock();
        List<String> stock = run(planned, stockOperator, events, List.of());
        long late = GroupWindowHarnesses.stockLateRows(stockOperator);
        long emitted = stock.stream().filter(l -> l.startsWith("+I")).count();
        assertTrue(emitted > 100, window + ": " + emitted + " windows emitted");
        assertTrue(late > 10, window + ": " + late + " late rows");
        for (int batch : new int[] {1, 7, 10_000}) {
            AcceleratedGroupWindowOperator accelerated = planned.newAccelerated(batch);
            assertEquals(stock, run(planned, accelerated, events, List.of()), window + ", batch " + batch);
            assertEquals(late, accelerated.getNumLateRecordsDropped().getCount(), "numLateRecordsDropped, batch "
                    + batch);
            RegisteredMetrics.assertStocksMetrics(RegisteredMetrics.of(stockOperator),
                    RegisteredMetrics.of(accelerated));
        }
    }

    /**
     * Rows from 1969 into 1970 (negative epoch milliseconds, late rows, watermarks before and after
     * the epoch): windows start at the floor of negative times, and each window ending at or before
     * the epoch has stock's second timer at 0, which fires nothing but takes its place among the
     * equal timers Flink fires; batches of every size, and a restore on another parallelism.
     */
    @ParameterizedTest
    @ValueSource(strings = {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP, GroupWindowHarnesses.SESSION})
    void windowsBeforeTheEpochGiveStockOutput(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 23, 1_200,
                -6_000L);
        OneInputStreamOperator<RowData, RowData> stockOperator = planned.stock().newStock();
        List<String> stock = run(planned, stockOperator, events, List.of());
        assertTrue(stock.stream().filter(l -> l.startsWith("+I") && l.contains("1969-12-31")).count() > 20,
                window + ": windows before the epoch emitted");
        assertTrue(GroupWindowHarnesses.stockLateRows(stockOperator) > 5, window + ": late rows");
        for (int batch : new int[] {1, 7, 10_000}) {
            AcceleratedGroupWindowOperator accelerated = planned.newAccelerated(batch);
            assertEquals(stock, run(planned, accelerated, events, List.of()), window + ", batch " + batch);
            assertEquals(GroupWindowHarnesses.stockLateRows(stockOperator),
                    accelerated.getNumLateRecordsDropped().getCount(), "numLateRecordsDropped, batch " + batch);
        }
        int cut = events.size() / 3;
        assertEquals(rescaled(planned, planned.stock()::newStock, events, cut, 2, 3),
                rescaled(planned, planned::newAccelerated, events, cut, 2, 3), window + ", 2 -> 3 subtasks");
    }

    /** Sessions that merge across a key's out-of-order rows: the output shows sessions longer than one gap. */
    @Test
    void sessionsMergeAsStocks() throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(
                GroupWindowHarnesses.query(GroupWindowHarnesses.SESSION));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 17, 800);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        assertEquals(stock, run(planned, planned.newAccelerated(), events, List.of()));
    }

    /** On RocksDB (its timers ordered by their bytes, not a heap) the output is stock's too. */
    @ParameterizedTest
    @ValueSource(strings = {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP, GroupWindowHarnesses.SESSION})
    void onRocksDbTheOutputIsStocks(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 9, 400);
        assertEquals(runOnRocksDb(planned, planned.stock().newStock(), events),
                runOnRocksDb(planned, planned.newAccelerated(), events));
    }

    private static List<String> runOnRocksDb(GroupWindowHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<GroupWindowHarnesses.Event> events)
            throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, planned.stock().keySelector(),
                        planned.stock().keyType(), MAX_PARALLELISM, 1, 0)) {
            WindowAggHarnesses.Backend.ROCKSDB.apply(harness);
            harness.setup(new RowDataSerializer(planned.stock().outputType()));
            harness.open();
            for (GroupWindowHarnesses.Event event : events) {
                GroupWindowHarnesses.feed(harness, event);
            }
            harness.endInput();
            return WindowAggHarnesses.output(harness, planned.stock().outputType());
        }
    }

    @Test
    void barriersAtRandomPointsGiveStockOutput() throws Exception {
        for (String window : WINDOWS) {
            GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
            List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 5, 800);
            List<Integer> barriers = BarrierPoints.random(events.size());
            assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                    run(planned, planned.newAccelerated(), events, barriers), window);
        }
    }

    private static List<String> rescaled(GroupWindowHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<GroupWindowHarnesses.Event> events,
            int cut, int before, int after) throws Exception {
        return new RescaledRun<GroupWindowHarnesses.Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()),
                GroupWindowHarnesses::feed, harness -> WindowAggHarnesses.output(harness,
                        planned.stock().outputType()), MAX_PARALLELISM).run(operators, events, cut, before, after,
                true);
    }

    @Test
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput() throws Exception {
        for (String window : WINDOWS) {
            GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
            for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
                List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(),
                        11 + scale[0] * 10L + scale[1], 600);
                int cut = events.size() / 2;
                List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
                assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                        window + ", " + scale[0] + " -> " + scale[1] + " subtasks");
                List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
                assertTrue(afterCut.stream().filter(l -> l.startsWith("+I")).count() > 20, "after the cut: "
                        + afterCut.size());
            }
        }
    }
}
