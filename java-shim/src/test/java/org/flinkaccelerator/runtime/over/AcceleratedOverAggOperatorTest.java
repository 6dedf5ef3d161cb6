package org.flinkaccelerator.runtime.over;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.flinkaccelerator.planner.OverFunctionV2OfThisLine;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's {@code RowTimeUnboundedPrecedingOverFunctionV2} and the accelerated OVER
 * aggregate, planned from the same SQL (ROWS and RANGE, COUNT, SUM, MIN, MAX and AVG over one
 * window), on the same random streams (out-of-order rowtimes, many equal within a key, late rows,
 * watermarks that do not advance) in Flink's keyed operator harness: the output sequences
 * (records with their timestamps, Flink's binary rows, watermarks) must be equal, for batches of
 * one row, of a few and of thousands, checkpoint barriers at random points, a restore after
 * 1 -> 1, 2 -> 1 and 2 -> 3 subtasks, and on RocksDB; the late rows counted are those stock drops.
 */
class AcceleratedOverAggOperatorTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private static List<String> run(OverAggHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            List<OverAggHarnesses.Event> events, List<Integer> barriers) throws Exception {
        return planned.stock().outputOf(operator, events, OverAggHarnesses::feed, barriers);
    }

    /**
     * The comparisons need stock's version 2 function as their oracle; on a line without it (1.20)
     * the OVER aggregate stays stock, which the reasons test checks there.
     */
    private static void requireVersion2OfThisLine() {
        assumeTrue(OverFunctionV2OfThisLine.EXISTS, "this Flink line has no RowTimeUnboundedPrecedingOverFunctionV2:"
                + " its OVER aggregates stay stock");
    }

    private static long rows(List<OverAggHarnesses.Event> events) {
        return events.stream().filter(e -> e.row() != null).count();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROWS", "RANGE"})
    void sameOutputAsStockForBatchesOfEverySize(String frame) throws Exception {
        requireVersion2OfThisLine();
        OverAggHarnesses.Planned planned = OverAggHarnesses.plan(OverAggHarnesses.query(frame));
        List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(planned.stock().inputType(), 3, 1_500);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        long emitted = stock.stream().filter(l -> l.startsWith("+I")).count();
        for (int batch : new int[] {1, 7, 10_000}) {
            AcceleratedOverAggOperator accelerated = planned.newAccelerated(batch);
            assertEquals(stock, run(planned, accelerated, events, List.of()), "batch " + batch);
            // The last watermark passes every row, so stock emitted every row it did not drop as late.
            assertEquals(rows(events) - emitted, accelerated.getNumLateRecordsDropped().getCount(),
                    "numLateRecordsDropped, batch " + batch);
        }
        assertTrue(emitted > rows(events) / 2 && emitted < rows(events), "late rows are dropped: " + emitted
                + " of " + rows(events) + " emitted");
    }

    /** On RocksDB (its timers ordered by their bytes, not a heap) the output is stock's too. */
    @Test
    void onRocksDbTheOutputIsStocks() throws Exception {
        requireVersion2OfThisLine();
        OverAggHarnesses.Planned planned = OverAggHarnesses.plan(OverAggHarnesses.query("ROWS"));
        List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(planned.stock().inputType(), 9, 400);
        assertEquals(runOnRocksDb(planned, planned.stock().newStock(), events),
                runOnRocksDb(planned, planned.newAccelerated(), events));
    }

    private static List<String> runOnRocksDb(OverAggHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<OverAggHarnesses.Event> events) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, planned.stock().keySelector(),
                        planned.stock().keyType(), MAX_PARALLELISM, 1, 0)) {
            // The backend is set before setup, which fixes the harness's configuration.
            WindowAggHarnesses.Backend.ROCKSDB.apply(harness);
            harness.setup(new RowDataSerializer(planned.stock().outputType()));
            harness.open();
            for (OverAggHarnesses.Event event : events) {
                OverAggHarnesses.feed(harness, event);
            }
            harness.endInput();
            return WindowAggHarnesses.output(harness, planned.stock().outputType());
        }
    }

    @Test
    void rowsAndRangeDifferOnEqualTimestamps() throws Exception {
        requireVersion2OfThisLine();
        OverAggHarnesses.Planned rows = OverAggHarnesses.plan(OverAggHarnesses.query("ROWS"));
        OverAggHarnesses.Planned range = OverAggHarnesses.plan(OverAggHarnesses.query("RANGE"));
        List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(rows.stock().inputType(), 4, 400);
        List<String> byRows = run(rows, rows.newAccelerated(), events, List.of());
        assertEquals(run(range, range.stock().newStock(), events, List.of()),
                run(range, range.newAccelerated(), events, List.of()));
        assertNotEquals(byRows, run(range, range.newAccelerated(), events, List.of()));
    }

    @Test
    void barriersAtRandomPointsGiveStockOutput() throws Exception {
        requireVersion2OfThisLine();
        for (String frame : new String[] {"ROWS", "RANGE"}) {
            OverAggHarnesses.Planned planned = OverAggHarnesses.plan(OverAggHarnesses.query(frame));
            List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(planned.stock().inputType(), 5, 800);
            List<Integer> barriers = BarrierPoints.random(events.size());
            assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                    run(planned, planned.newAccelerated(), events, barriers), frame);
        }
    }

    private static List<String> rescaled(OverAggHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<OverAggHarnesses.Event> events, int cut,
            int before, int after) throws Exception {
        return new RescaledRun<OverAggHarnesses.Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()),
                OverAggHarnesses::feed, harness -> WindowAggHarnesses.output(harness, planned.stock().outputType()),
                MAX_PARALLELISM).run(operators, events, cut, before, after, true);
    }

    @Test
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput() throws Exception {
        requireVersion2OfThisLine();
        for (String frame : new String[] {"ROWS", "RANGE"}) {
            OverAggHarnesses.Planned planned = OverAggHarnesses.plan(OverAggHarnesses.query(frame));
            for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
                List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(planned.stock().inputType(),
                        11 + scale[0] * 10L + scale[1], 600);
                int cut = events.size() / 2;
                List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
                assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                        frame + ", " + scale[0] + " -> " + scale[1] + " subtasks");
                // Rows held across the cut come out after it, with the counts the keys had before it.
                List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
                assertTrue(afterCut.stream().filter(l -> l.startsWith("+I")).count() > 50, "after the cut: "
                        + afterCut.size());
            }
        }
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        requireVersion2OfThisLine();
        OverAggHarnesses.Planned planned = OverAggHarnesses.plan(OverAggHarnesses.query("ROWS"));
        List<OverAggHarnesses.Event> events = OverAggHarnesses.stream(planned.stock().inputType(), 3, 100);
        List<OverAggHarnesses.Event> open = events.subList(0, events.size() - 1);
        OperatorSubtaskState stock = planned.stock().snapshotAfter(planned.stock().newStock(), open,
                OverAggHarnesses::feed);
        String fromStock = planned.stock().restoreFailure(planned.newAccelerated(), stock, OverAggStateException.class);
        assertTrue(fromStock.contains("written by stock Flink's OVER aggregate")
                && fromStock.contains("accelerator.over-aggregate.enabled: false"), fromStock);
        OverAggHarnesses.Planned other = OverAggHarnesses.plan(OverAggHarnesses.query("RANGE"));
        OperatorSubtaskState ours = planned.stock().snapshotAfter(planned.newAccelerated(), open,
                OverAggHarnesses::feed);
        String fromOther = other.stock().restoreFailure(other.newAccelerated(), ours, OverAggStateException.class);
        assertTrue(fromOther.contains("the query's OVER aggregate changed"), fromOther);
    }

    @Test
    void boundedWindowsProcessingTimeAndStateTtlStayStockWithTheirReasons() throws Exception {
        String bounded = OverAggHarnesses.query("ROWS").replace("UNBOUNDED PRECEDING", "5 PRECEDING");
        List<String> boundedReasons = OverAggHarnesses.stockReasons(bounded);
        // 1.20 also names its version 1 function, which keeps every OVER aggregate stock there.
        assertEquals(OverFunctionV2OfThisLine.EXISTS ? 1 : 2, boundedReasons.size(), boundedReasons.toString());
        assertTrue(boundedReasons.get(0).contains("a ROWS BETWEEN 5 PRECEDING AND CURRENT ROW window is not"
                + " accelerated; only UNBOUNDED PRECEDING AND CURRENT ROW is"), boundedReasons.toString());
        String ttl = OverAggHarnesses.stockReasons(OverAggHarnesses.query("ROWS"), "table.exec.state.ttl", "1 h")
                .toString();
        assertTrue(ttl.contains("state TTL"), ttl);
        String legacy = OverAggHarnesses.stockReasons(OverAggHarnesses.query("RANGE"),
                "table.exec.unbounded-over.version", "1").toString();
        assertTrue(legacy.contains("RowTimeUnboundedPrecedingOverFunctionV2"), legacy);
        if (!OverFunctionV2OfThisLine.EXISTS) {
            String plain = OverAggHarnesses.stockReasons(OverAggHarnesses.query("ROWS")).toString();
            assertTrue(plain.contains("this Flink line has no other, as 1.20"), plain);
        }
    }
}
