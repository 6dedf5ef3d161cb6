package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;

/**
 * Stock Flink's {@code GroupAggFunction} and the accelerated group aggregate, planned from the same
 * SQL, on the same random insert-only streams in Flink's keyed operator harness: the output
 * sequences (changelog kinds, timestamps, Flink's binary rows, watermarks) must be equal for
 * COUNT, SUM, MIN, MAX and AVG, FILTER clauses and an aggregate without keys, with update-befores and without, batches of one row, of a few and of thousands, checkpoint barriers
 * at random points, a restore mid-stream and a rescale of the key groups from 2 subtasks to 1 and 3.
 */
class AcceleratedGroupAggOperatorTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    static final String ALL_FUNCTIONS = "SELECT k1, k2, COUNT(*) AS n, COUNT(c) AS nc, SUM(a) AS sa, SUM(b) AS sb,"
            + " SUM(c) AS sc, SUM(d) AS sd, MIN(a) AS mia, MAX(b) AS mab, MIN(c) AS mic, MAX(c) AS mac,"
            + " MIN(d) AS mid, MAX(d) AS mad FROM bids GROUP BY k1, k2";
    /** Without a COUNT, a row often leaves every value as it was: stock emits nothing for it. */
    static final String EXTREMES = "SELECT k1, MIN(b) AS mib, MAX(c) AS mac, MAX(d) AS mad FROM bids GROUP BY k1";

    /** AVG over every argument type Flink averages: BIGINT sums (wrapping), DOUBLE sums, DECIMAL(38, s) sums. */
    static final String AVERAGES = "SELECT k1, k2, AVG(a) AS aa, AVG(b) AS ab, AVG(c) AS ac, AVG(d) AS ad,"
            + " AVG(CAST(b AS TINYINT)) AS avt, AVG(CAST(b AS SMALLINT)) AS asm, AVG(CAST(c AS FLOAT)) AS af"
            + " FROM bids GROUP BY k1, k2";
    /**
     * A truncated integer average often stays equal while its sum and count move: stock compares the
     * values, not the accumulators, and emits nothing for such a row.
     */
    static final String TRUNCATED_AVERAGE = "SELECT k1, AVG(CAST(b AS TINYINT)) AS avt FROM bids GROUP BY k1";
    /** FILTER clauses: a FALSE or NULL condition skips the row for that aggregate only. */
    static final String FILTERS = "SELECT k1, COUNT(*) AS n, COUNT(*) FILTER (WHERE b > 0) AS np,"
            + " SUM(a) FILTER (WHERE c > 0) AS sa, AVG(d) FILTER (WHERE k2 = 1) AS ad,"
            + " MAX(c) FILTER (WHERE b < 0) AS mc, MIN(b) FILTER (WHERE d IS NULL) AS mb FROM bids GROUP BY k1";
    /**
     * Nexmark q17's shape: integer aggregates only (COUNT, SUM, MIN, MAX, AVG of BIGINT and INT, with
     * FILTERs), which the sidecar folds in one pass over the batch sorted by key instead of level by level.
     */
    static final String INTEGERS = "SELECT k1, k2, COUNT(*) AS n, COUNT(*) FILTER (WHERE b < 0) AS nn,"
            + " COUNT(b) AS nb, SUM(a) AS sa, SUM(b) FILTER (WHERE c > 0) AS sb, MIN(a) AS mia, MAX(a) AS maa,"
            + " MIN(b) AS mib, MAX(b) AS mab, AVG(a) AS aa FROM bids GROUP BY k1, k2";
    /**
     * MIN and MAX over strings (supplementary characters and U+E000 to U+FFFF among them), dates,
     * times, timestamps (precision 0 and 9, TIMESTAMP_LTZ(6), years 1 to 9999), booleans, TINYINT,
     * SMALLINT and FLOAT; SUM over TINYINT and SMALLINT (wrapping in their width) and FLOAT.
     */
    static final String EVERY_TYPE = "SELECT k1, COUNT(*) AS n, MIN(s) AS mis, MAX(s) AS mas, MIN(dt) AS midt,"
            + " MAX(dt) AS madt, MIN(tm) AS mitm, MAX(tm) AS matm, MIN(t0) AS mit0, MAX(t9) AS mat9, MIN(l6) AS mil6,"
            + " MAX(l6) AS mal6, MIN(bo) AS mibo, MAX(bo) AS mabo, MIN(e) AS mie, MAX(f) AS maf, MIN(g) AS mig,"
            + " MAX(g) AS mag, SUM(e) AS se, SUM(f) AS sf, SUM(g) AS sg FROM bids GROUP BY k1";
    /** Without a COUNT, the extremes of strings and timestamps often stay: stock emits nothing for such a row. */
    static final String ORDERED_EXTREMES = "SELECT k1, MIN(s) AS mis, MAX(t9) AS mat9, MAX(dt) AS madt FROM bids"
            + " GROUP BY k1";
    /** No GROUP BY keys: one global group under Flink's empty key. */
    static final String GLOBAL = "SELECT COUNT(*) AS n, SUM(a) AS sa, AVG(c) AS ac, MIN(d) AS md,"
            + " COUNT(*) FILTER (WHERE b > 0) AS np FROM bids";

    static Stream<Arguments> queries() {
        return Stream.of(Arguments.of(ALL_FUNCTIONS, GroupAggHarnesses.Sink.UPSERT, "k1, k2"),
                Arguments.of(ALL_FUNCTIONS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(EXTREMES, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(AVERAGES, GroupAggHarnesses.Sink.UPSERT, "k1, k2"),
                Arguments.of(TRUNCATED_AVERAGE, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(FILTERS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(INTEGERS, GroupAggHarnesses.Sink.UPSERT, "k1, k2"),
                Arguments.of(GLOBAL, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(EVERY_TYPE, GroupAggHarnesses.Sink.UPSERT, "k1"),
                Arguments.of(ORDERED_EXTREMES, GroupAggHarnesses.Sink.RETRACT, ""));
    }

    /** The queries whose state differs in shape (one- and two-field accumulators, FILTERs, the empty key). */
    static Stream<String> stateShapes() {
        return Stream.of(ALL_FUNCTIONS, AVERAGES, FILTERS, INTEGERS, GLOBAL, EVERY_TYPE);
    }

    static List<String> run(GroupAggHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            List<GroupAggHarnesses.Event> events, List<Integer> barriers) throws Exception {
        return planned.stock().outputOf(operator, events, GroupAggHarnesses::feed, barriers);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameOutputAsStockForBatchesOfEverySize(String query, GroupAggHarnesses.Sink sink, String keys)
            throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(query, sink, keys);
        assertEquals(sink == GroupAggHarnesses.Sink.RETRACT,
                planned.spec().descriptorJson().contains("\"generate_update_before\": true"),
                planned.spec().descriptorJson());
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 3, 400);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, run(planned, planned.newAccelerated(batch), events, List.of()), "batch " + batch);
        }
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("+U")), "updates: " + stock);
        assertEquals(sink == GroupAggHarnesses.Sink.RETRACT, stock.stream().anyMatch(l -> l.startsWith("-U")));
        long rows = events.stream().filter(e -> e.row() != null).count();
        long emitted = stock.stream().filter(l -> l.startsWith("+")).count();
        if (query.equals(EXTREMES) || query.equals(ORDERED_EXTREMES)) {
            assertTrue(emitted < rows / 2, "most rows change no extreme: " + emitted + " of " + rows);
        } else if (query.equals(TRUNCATED_AVERAGE)) {
            // Beyond the rows whose argument is NULL (they change no accumulator), rows that move the
            // sum and count but not the truncated quotient emit nothing.
            int argument = planned.stock().inputType().getFieldCount() - 1;
            long nulls = events.stream().filter(e -> e.row() != null && e.row().isNullAt(argument)).count();
            assertTrue(emitted + nulls < rows - 10, "rows that leave the average equal emit nothing: " + emitted
                    + " emitted, " + nulls + " NULL arguments, of " + rows);
        } else if (query.equals(AVERAGES)) {
            assertTrue(emitted > rows / 2, "averages change with most rows: " + emitted + " of " + rows);
        } else {
            assertEquals(rows, emitted, "COUNT(*) changes with every row");
        }
    }

    @ParameterizedTest
    @MethodSource("stateShapes")
    void barriersAtRandomPointsGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 5, 600);
        List<Integer> barriers = BarrierPoints.random(events.size());
        assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                run(planned, planned.newAccelerated(), events, barriers));
    }

    @Test
    void aRowWaitsNoLongerThanTheMaxDelay() throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(ALL_FUNCTIONS, GroupAggHarnesses.Sink.UPSERT,
                "k1, k2");
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 4, 3);
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            harness.setProcessingTime(0);
            GroupAggHarnesses.feed(harness, events.get(0));
            assertEquals(0, harness.getOutput().size(), "the row waits in its batch");
            harness.setProcessingTime(planned.spec().maxDelay().toMillis());
            assertEquals(1, harness.getOutput().size(), "sent once the max delay passed");
        }
    }

    /**
     * Runs the events on {@code before} subtasks up to {@code cut}, snapshots every subtask and
     * continues from the repartitioned snapshot on {@code after} subtasks ({@link RescaledRun}).
     * Each subtask's output, before the cut then after.
     */
    static List<String> rescaled(GroupAggHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<GroupAggHarnesses.Event> events,
            int cut, int before, int after) throws Exception {
        return new RescaledRun<GroupAggHarnesses.Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()), GroupAggHarnesses::feed,
                harness -> WindowAggHarnesses.output(harness, planned.stock().outputType()), MAX_PARALLELISM)
                .run(operators, events, cut, before, after, true);
    }

    @ParameterizedTest
    @MethodSource("stateShapes")
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
            List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(),
                    11 + scale[0] * 10L + scale[1], 600);
            int cut = events.size() / 2;
            List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
            assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                    scale[0] + " -> " + scale[1] + " subtasks");
            // After the cut, keys seen before it update (their state was restored) rather than insert again.
            List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
            assertTrue(afterCut.stream().filter(l -> l.startsWith("+I")).count() < 10, "restored keys: " + afterCut);
        }
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(ALL_FUNCTIONS, GroupAggHarnesses.Sink.RETRACT, "");
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 3, 200);
        OperatorSubtaskState stock = planned.stock().snapshotAfter(planned.stock().newStock(), events, GroupAggHarnesses::feed);
        String fromStock = planned.stock().restoreFailure(planned.newAccelerated(), stock, GroupAggStateException.class);
        assertTrue(fromStock.contains("written by stock Flink's group aggregate")
                && fromStock.contains("accelerator.group-aggregate.enabled: false"), fromStock);
        GroupAggHarnesses.Planned other = GroupAggHarnesses.plan(ALL_FUNCTIONS.replace("SUM(a)", "SUM(b)"),
                GroupAggHarnesses.Sink.RETRACT, "");
        OperatorSubtaskState ours = planned.stock().snapshotAfter(planned.newAccelerated(), events, GroupAggHarnesses::feed);
        String fromOther = other.stock().restoreFailure(other.newAccelerated(), ours, GroupAggStateException.class);
        assertTrue(fromOther.contains("the query's group aggregate changed"), fromOther);
    }
}
