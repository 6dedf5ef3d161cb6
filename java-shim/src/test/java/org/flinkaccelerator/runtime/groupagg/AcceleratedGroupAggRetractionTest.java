package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stock Flink's {@code GroupAggFunction} over an updating input (an upsert source normalized into
 * +I/-U/+U/-D) and the accelerated group aggregate, planned from the same SQL, on the same random
 * changelogs in Flink's keyed operator harness: identical output sequences (kinds, timestamps,
 * binary rows, watermarks) for COUNT, SUM and AVG with retraction, FILTER clauses and a global
 * aggregate, with and without update-befores, groups whose rows are all retracted (-D, then +I
 * again), retractions for groups without state, barriers at random points and a restore from 2
 * subtasks to 1 and 3.
 */
class AcceleratedGroupAggRetractionTest {
    /** The query's COUNT(*) is the record counter; SUM with retraction over every numeric type. */
    static final String SUMS = "SELECT k1, k2, COUNT(*) AS n, COUNT(c) AS nc, SUM(a) AS sa, SUM(b) AS sb,"
            + " SUM(c) AS sc, SUM(d) AS sd, SUM(e) AS se, SUM(f) AS sf, SUM(g) AS sg FROM bids GROUP BY k1, k2";
    /** No COUNT(*): the planner inserts a record counter the output does not show. */
    static final String AVERAGES = "SELECT k1, AVG(a) AS aa, AVG(b) AS ab, AVG(c) AS ac, AVG(d) AS ad,"
            + " AVG(CAST(b AS TINYINT)) AS avt FROM bids GROUP BY k1";
    /** A FILTERed COUNT(*) is no record counter; the filters apply to retractions as to accumulations. */
    static final String FILTERS = "SELECT k1, COUNT(*) FILTER (WHERE b > 0) AS np, SUM(a) FILTER (WHERE c > 0) AS sa,"
            + " AVG(d) FILTER (WHERE k2 = 1) AS ad FROM bids GROUP BY k1";
    /**
     * Integer COUNT, SUM and AVG only (Nexmark q4's average of maxima): the sidecar folds these
     * over an updating input in one pass, cutting a group's rows where it empties and starts again.
     */
    static final String INTEGERS = "SELECT k1, COUNT(*) AS n, COUNT(b) AS nb, SUM(a) AS sa, SUM(b) AS sb,"
            + " AVG(a) AS aa, AVG(b) AS ab, SUM(a) FILTER (WHERE b > 0) AS sf FROM bids GROUP BY k1";
    /** No GROUP BY keys: one group, emptied and refilled. */
    static final String GLOBAL = "SELECT COUNT(*) AS n, SUM(a) AS sa, AVG(c) AS ac FROM bids";

    static Stream<Arguments> queries() {
        return Stream.of(Arguments.of(SUMS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(SUMS, GroupAggHarnesses.Sink.UPSERT, "k1, k2"),
                Arguments.of(AVERAGES, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(FILTERS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(INTEGERS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(INTEGERS, GroupAggHarnesses.Sink.UPSERT, "k1"),
                Arguments.of(GLOBAL, GroupAggHarnesses.Sink.RETRACT, ""));
    }

    static Stream<String> stateShapes() {
        return Stream.of(SUMS, AVERAGES, INTEGERS, GLOBAL);
    }

    /** A dozen rows spread over the groups; the one global group empties only with fewer. */
    private static int upsertKeys(String query) {
        return query.equals(GLOBAL) ? 2 : 12;
    }

    private static GroupAggHarnesses.Planned plan(String query, GroupAggHarnesses.Sink sink, String keys)
            throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(GroupAggHarnesses.UPSERT_TABLE, query, sink, keys);
        assertTrue(planned.spec().updatingInput(), planned.spec().descriptorJson());
        return planned;
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameChangelogAsStockForBatchesOfEverySize(String query, GroupAggHarnesses.Sink sink, String keys)
            throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, sink, keys);
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.changelog(planned.stock().inputType(), 3, 500,
                upsertKeys(query));
        List<String> stock = AcceleratedGroupAggOperatorTest.run(planned, planned.stock().newStock(), events, List.of());
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, AcceleratedGroupAggOperatorTest.run(planned, planned.newAccelerated(batch), events,
                    List.of()), "batch " + batch);
        }
        // Groups lose their last row and come back: a -D, and an +I after it.
        int delete = stock.indexOf(stock.stream().filter(l -> l.startsWith("-D")).findFirst().orElse(""));
        assertTrue(delete >= 0 && stock.subList(delete, stock.size()).stream().anyMatch(l -> l.startsWith("+I")),
                "deletes and inserts again: " + stock);
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("+U")), "updates: " + stock);
        assertEquals(sink == GroupAggHarnesses.Sink.RETRACT, stock.stream().anyMatch(l -> l.startsWith("-U")));
    }

    @ParameterizedTest
    @MethodSource("stateShapes")
    void barriersAtRandomPointsGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.changelog(planned.stock().inputType(), 5, 500,
                upsertKeys(query));
        Random random = new Random(5);
        List<Integer> barriers = new ArrayList<>();
        for (int i = 0; i < events.size(); i += 1 + random.nextInt(120)) {
            barriers.add(i);
        }
        assertEquals(AcceleratedGroupAggOperatorTest.run(planned, planned.stock().newStock(), events, barriers),
                AcceleratedGroupAggOperatorTest.run(planned, planned.newAccelerated(), events, barriers));
    }

    @ParameterizedTest
    @MethodSource("stateShapes")
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        for (int[] scale : new int[][] {{2, 1}, {2, 3}}) {
            List<GroupAggHarnesses.Event> events = GroupAggHarnesses.changelog(planned.stock().inputType(),
                    11 + scale[0] * 10L + scale[1], 500, upsertKeys(query));
            int cut = events.size() / 2;
            List<String> stock = AcceleratedGroupAggOperatorTest.rescaled(planned, planned.stock()::newStock, events,
                    cut, scale[0], scale[1]);
            assertEquals(stock, AcceleratedGroupAggOperatorTest.rescaled(planned, planned::newAccelerated, events,
                    cut, scale[0], scale[1]), scale[0] + " -> " + scale[1] + " subtasks");
            // After the cut, restored groups retract their rows: -U and -D of values from before the cut.
            List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
            assertTrue(afterCut.stream().anyMatch(l -> l.startsWith("-D")), "restored groups emptied: " + afterCut);
        }
    }
}
