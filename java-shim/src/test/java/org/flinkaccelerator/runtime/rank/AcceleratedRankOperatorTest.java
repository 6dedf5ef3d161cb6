package org.flinkaccelerator.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.flinkaccelerator.planner.AsyncStateOfThisLine;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's {@code AppendOnlyTopNFunction} and the accelerated Top-N, planned from the same
 * SQL, on the same random insert-only streams (sort values from a few values with NULLs, so sort
 * keys tie between different rows; other fields with NULL, NaN and signed zeros) in Flink's keyed
 * operator harness: the output sequences (changelog kinds, timestamps, Flink's binary rows,
 * watermarks) must be equal, with and without the row number, with and without update-befores,
 * ascending and descending, one and two sort fields, for batches of one row, of a few and of
 * thousands, checkpoint barriers at random points, and a restore 1 -> 1 and after a rescale from 2
 * subtasks to 1 and 3, also with a state cut into snapshot pieces and restore calls inside keys' top rows.
 */
class AcceleratedRankOperatorTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    private static final List<String> PRINT = List.of();
    /** The upsert key of a Top-N selecting its row number: the sink then takes no update-befores. */
    private static final List<String> BY_ROW_NUMBER = List.of("k1", "k2", "rn");

    /** (ORDER BY, N, row number selected, sink key). */
    static Stream<Arguments> queries() {
        return Stream.of(Arguments.of("a DESC", 3, false, PRINT),
                Arguments.of("a DESC", 3, true, PRINT),
                Arguments.of("a ASC", 10, true, PRINT),
                Arguments.of("a DESC", 2, true, BY_ROW_NUMBER),
                Arguments.of("a ASC NULLS LAST, s DESC", 3, true, PRINT),
                Arguments.of("s DESC NULLS FIRST, ts ASC", 3, false, PRINT),
                Arguments.of("ts DESC, d ASC", 10, false, PRINT));
    }

    private static List<String> run(RankHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            List<RankHarnesses.Event> events, List<Integer> barriers) throws Exception {
        return planned.stock().outputOf(operator, events, RankHarnesses::feed, barriers);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameOutputAsStockForBatchesOfEverySize(String order, int n, boolean rowNumber, List<String> sinkKey)
            throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query(order, n, rowNumber), sinkKey);
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 3, 600, 60);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, run(planned, planned.newAccelerated(batch), events, List.of()), "batch " + batch);
        }
        // The stream reaches every kind the query emits: rows leave the top, with the row number places change hands.
        assertEquals(!rowNumber, stock.stream().anyMatch(l -> l.startsWith("-D")), "deletes without the row number");
        assertEquals(rowNumber, stock.stream().anyMatch(l -> l.startsWith("+U")), "updates with the row number");
        assertEquals(rowNumber && sinkKey.isEmpty(), stock.stream().anyMatch(l -> l.startsWith("-U")),
                "update-befores only when the sink takes them");
    }

    /**
     * What a chained operator that reads the rowtime without {@code isNullAt} (Flink's sink
     * timestamp inserter) finds in each output row: the harness copies every output with the output
     * type's RowDataSerializer, as Flink's copy between chained operators does. Stock's Top-N
     * emits its input's BinaryRowData, whose NULL ts reads as epoch 0, or with the row number a
     * JoinedRowData, which the copy turns into a GenericRowData holding null.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aNullRowtimeReadsAsStocksAfterFlinksCopy(boolean rowNumber) throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC", 3, rowNumber), PRINT);
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 5, 300, 40);
        List<String> stock = rowtimesRead(planned, planned.stock().newStock(), events);
        assertEquals(rowNumber, stock.stream().anyMatch(read -> read.endsWith(" null")), "stock reads a null rowtime");
        assertEquals(stock, rowtimesRead(planned, planned.newAccelerated(7), events));
    }

    private static List<String> rowtimesRead(RankHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<RankHarnesses.Event> events) throws Exception {
        int ts = planned.stock().outputType().getFieldNames().indexOf("ts");
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.stock().harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            for (RankHarnesses.Event event : events) {
                RankHarnesses.feed(harness, event);
            }
            harness.endInput();
            List<String> out = new ArrayList<>();
            for (RowData row : harness.extractOutputValues()) {
                TimestampData rowtime = row.getTimestamp(ts, 3);
                out.add(row.getRowKind().shortString() + " " + (rowtime == null ? "null" : rowtime.getMillisecond()));
            }
            return out;
        }
    }

    @Test
    void barriersAtRandomPointsGiveStockOutput() throws Exception {
        for (boolean rowNumber : new boolean[] {false, true}) {
            RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC, s ASC", 3, rowNumber),
                    PRINT);
            List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 5, 600, 60);
            List<Integer> barriers = BarrierPoints.random(events.size());
            assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                    run(planned, planned.newAccelerated(), events, barriers), "row number " + rowNumber);
        }
    }

    private static List<String> rescaled(RankHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<RankHarnesses.Event> events, int cut,
            int before, int after) throws Exception {
        return new RescaledRun<RankHarnesses.Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()),
                RankHarnesses::feed, harness -> WindowAggHarnesses.output(harness, planned.stock().outputType()),
                MAX_PARALLELISM).run(operators, events, cut, before, after, true);
    }

    @Test
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput() throws Exception {
        for (boolean rowNumber : new boolean[] {false, true}) {
            RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC", 3, rowNumber), PRINT);
            for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
                List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(),
                        11 + scale[0] * 10L + scale[1], 400, 300);
                int cut = events.size() / 2;
                List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
                assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                        "row number " + rowNumber + ", " + scale[0] + " -> " + scale[1] + " subtasks");
                // After the cut, rows leave tops filled before it: their state was restored.
                List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
                assertTrue(afterCut.stream().anyMatch(l -> l.startsWith(rowNumber ? "+U" : "-D")),
                        "restored tops: " + afterCut);
            }
        }
    }

    /**
     * With snapshot pieces and restore calls of a few hundred bytes, a key group's top rows span
     * pieces and a key's rows are cut between pieces and between calls: the restore gathers each key
     * whole (accelerator/sidecar/restore_pieces.py) and the output stays stock's.
     */
    @Test
    void keysWhoseTopRowsAreCutOverSnapshotPiecesAndRestoreCallsRestoreAsStock() throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC, s ASC", 10, true), PRINT);
        for (int[] scale : new int[][] {{1, 1}, {2, 1}}) {
            List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 40 + scale[0], 600,
                    300);
            int cut = events.size() / 2;
            List<AcceleratedRankOperator> made = new ArrayList<>();
            Supplier<OneInputStreamOperator<RowData, RowData>> small = () -> {
                AcceleratedRankOperator operator = planned.newAccelerated(planned.spec().batchSize(), 400);
                made.add(operator);
                return operator;
            };
            String run = scale[0] + " -> " + scale[1] + " subtasks";
            List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
            assertEquals(stock, rescaled(planned, small, events, cut, scale[0], scale[1]), run);
            long pieces = made.subList(0, scale[0]).stream().mapToLong(AcceleratedRankOperator::snapshotPieces).sum();
            int calls = made.get(scale[0]).restoreCalls();
            assertTrue(pieces > 10 && calls >= pieces, run + ": " + pieces + " pieces, " + calls + " restore calls");
            List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
            assertTrue(afterCut.stream().anyMatch(l -> l.startsWith("+U")), run + ": restored tops: " + afterCut);
        }
    }

    @Test
    void aRowWaitsNoLongerThanTheMaxDelay() throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC", 3, false), PRINT);
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 4, 3, 3);
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            harness.setProcessingTime(0);
            RankHarnesses.feed(harness, events.get(0));
            assertEquals(0, harness.getOutput().size(), "the row waits in its batch");
            harness.setProcessingTime(planned.spec().maxDelay().toMillis());
            assertEquals(1, harness.getOutput().size(), "sent once the max delay passed");
        }
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC", 3, true), PRINT);
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 3, 100, 20);
        OperatorSubtaskState stock = planned.stock().snapshotAfter(planned.stock().newStock(), events,
                RankHarnesses::feed);
        String fromStock = planned.stock().restoreFailure(planned.newAccelerated(), stock, RankStateException.class);
        assertTrue(fromStock.contains("written by stock Flink's Top-N")
                && fromStock.contains("accelerator.top-n.enabled: false"), fromStock);
        RankHarnesses.Planned other = RankHarnesses.plan(RankHarnesses.query("a DESC", 4, true), PRINT);
        OperatorSubtaskState ours = planned.stock().snapshotAfter(planned.newAccelerated(), events,
                RankHarnesses::feed);
        String fromOther = other.stock().restoreFailure(other.newAccelerated(), ours, RankStateException.class);
        assertTrue(fromOther.contains("the query's Top-N changed"), fromOther);
    }

    @Test
    void whatStockRunsOtherwiseStaysStockWithItsReason() {
        String top1 = String.join("; ", RankHarnesses.stockReasons(RankHarnesses.query("a DESC", 1, true), PRINT));
        assertTrue(top1.contains("FastTop1Function"), top1);
        String from2 = String.join("; ", RankHarnesses.stockReasons(
                "SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k1 ORDER BY a) AS rn FROM bids)"
                        + " WHERE rn BETWEEN 2 AND 4", PRINT));
        assertTrue(from2.contains("starts at 2"), from2);
        String byDouble = String.join("; ", RankHarnesses.stockReasons(RankHarnesses.query("c DESC", 3, true), PRINT));
        assertTrue(byDouble.contains("sort field 'c' is DOUBLE"), byDouble);
        String ttl = String.join("; ", RankHarnesses.stockReasons(RankHarnesses.query("a DESC", 3, true), PRINT,
                "table.exec.state.ttl", "1 h"));
        assertTrue(ttl.contains("state TTL"), ttl);
        String async = String.join("; ", RankHarnesses.stockReasons(RankHarnesses.query("a DESC", 3, true), PRINT,
                "table.exec.async-state.enabled", "true"));
        assertTrue(AsyncStateOfThisLine.EXISTS ? async.contains("asynchronous state") : async.isEmpty(), async);
        String updating = String.join("; ", RankHarnesses.stockReasons("SELECT * FROM (SELECT *, ROW_NUMBER() OVER"
                + " (PARTITION BY k1 ORDER BY total DESC) AS rn FROM (SELECT k1, k2, SUM(a) AS total FROM bids"
                + " GROUP BY k1, k2)) WHERE rn <= 3", PRINT));
        assertTrue(updating.contains("the input is updating"), updating);
        assertEquals(List.of(), RankHarnesses.stockReasons(RankHarnesses.query("a DESC", 3, true), PRINT));
    }
}
