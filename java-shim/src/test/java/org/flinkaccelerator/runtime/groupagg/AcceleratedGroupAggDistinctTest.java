package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stock Flink's {@code GroupAggFunction} with DISTINCT aggregates (its distinct map views, one per
 * argument, marking which aggregate saw each value) and the accelerated group aggregate, planned
 * from the same SQL, on the same random insert-only streams whose values repeat (NULLs, NaN, 0.0
 * and -0.0, a hot key) in Flink's keyed operator harness: identical output sequences for
 * COUNT(DISTINCT) of BIGINT, INT, DOUBLE, DECIMAL and STRING arguments with FILTERs sharing an
 * argument, SUM, AVG, MIN and MAX of DISTINCT values and a global aggregate, with and without
 * update-befores, batches of 1, 7 and 10000 rows, barriers at random points, and a restore 1 -> 1,
 * 2 -> 1 and 2 -> 3 subtasks.
 */
class AcceleratedGroupAggDistinctTest {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, d DECIMAL(10, 2),"
            + " s STRING) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";
    /** Nexmark q15's shape: COUNT(*) and COUNT(DISTINCT) with FILTERs, several sharing one argument. */
    static final String COUNTS = "SELECT k1, COUNT(*) AS n, COUNT(*) FILTER (WHERE b > 0) AS np,"
            + " COUNT(DISTINCT a) AS da, COUNT(DISTINCT a) FILTER (WHERE b > 0) AS dap,"
            + " COUNT(DISTINCT a) FILTER (WHERE c > 0) AS dac, COUNT(DISTINCT s) AS ds,"
            + " COUNT(DISTINCT s) FILTER (WHERE b < 0) AS dsn, COUNT(DISTINCT c) AS dc, COUNT(DISTINCT d) AS dd"
            + " FROM bids GROUP BY k1";
    /** The other functions over DISTINCT values: a value counts once in a SUM or an AVG. */
    static final String FUNCTIONS = "SELECT k1, k2, SUM(DISTINCT b) AS sb, SUM(DISTINCT c) AS sc,"
            + " AVG(DISTINCT a) AS aa, MIN(DISTINCT d) AS md, MAX(DISTINCT b) AS mb,"
            + " SUM(DISTINCT d) FILTER (WHERE a > 0) AS sd, COUNT(DISTINCT b) AS db, SUM(b) AS total"
            + " FROM bids GROUP BY k1, k2";
    /** DISTINCT aggregates only: a value seen before changes nothing, and stock emits nothing for it. */
    static final String ONLY_DISTINCT = "SELECT k1, COUNT(DISTINCT s) AS ds, COUNT(DISTINCT b) FILTER (WHERE c > 0) AS db"
            + " FROM bids GROUP BY k1";
    /** No GROUP BY keys: one group under Flink's empty key. */
    static final String GLOBAL = "SELECT COUNT(DISTINCT a) AS da, COUNT(DISTINCT s) FILTER (WHERE b > 0) AS ds,"
            + " SUM(DISTINCT b) AS sb FROM bids";

    static Stream<Arguments> queries() {
        return Stream.of(Arguments.of(COUNTS, GroupAggHarnesses.Sink.UPSERT, "k1"),
                Arguments.of(COUNTS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(FUNCTIONS, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(ONLY_DISTINCT, GroupAggHarnesses.Sink.RETRACT, ""),
                Arguments.of(GLOBAL, GroupAggHarnesses.Sink.RETRACT, ""));
    }

    static Stream<String> stateShapes() {
        return Stream.of(COUNTS, FUNCTIONS, GLOBAL);
    }

    private static GroupAggHarnesses.Planned plan(String query, GroupAggHarnesses.Sink sink, String keys)
            throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(TABLE, query, sink, keys);
        assertTrue(planned.spec().descriptorJson().contains("\"distinct\": true"), planned.spec().descriptorJson());
        return planned;
    }

    private static List<GroupAggHarnesses.Event> events(GroupAggHarnesses.Planned planned, long seed, int rows) {
        return GroupAggHarnesses.pooledStream(planned.stock().inputType(), seed, rows, 9);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameOutputAsStockForBatchesOfEverySize(String query, GroupAggHarnesses.Sink sink, String keys)
            throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, sink, keys);
        List<GroupAggHarnesses.Event> events = events(planned, 3, 500);
        List<String> stock = AcceleratedGroupAggOperatorTest.run(planned, planned.stock().newStock(), events, List.of());
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, AcceleratedGroupAggOperatorTest.run(planned, planned.newAccelerated(batch), events,
                    List.of()), "batch " + batch);
        }
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("+U")), "updates: " + stock);
        if (query.equals(ONLY_DISTINCT)) {
            long rows = events.stream().filter(e -> e.row() != null).count();
            long emitted = stock.stream().filter(l -> l.startsWith("+")).count();
            assertTrue(emitted > 10 && emitted < rows / 2, "values seen before emit nothing: " + emitted + " of " + rows);
        }
    }

    @ParameterizedTest
    @MethodSource("stateShapes")
    void barriersAtRandomPointsGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        List<GroupAggHarnesses.Event> events = events(planned, 5, 600);
        List<Integer> barriers = BarrierPoints.random(events.size());
        assertEquals(AcceleratedGroupAggOperatorTest.run(planned, planned.stock().newStock(), events, barriers),
                AcceleratedGroupAggOperatorTest.run(planned, planned.newAccelerated(), events, barriers));
    }

    /** The distinct values travel with their group's key group: after the cut a value seen before still counts once. */
    @ParameterizedTest
    @MethodSource("stateShapes")
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput(String query) throws Exception {
        GroupAggHarnesses.Planned planned = plan(query, GroupAggHarnesses.Sink.RETRACT, "");
        for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
            List<GroupAggHarnesses.Event> events = events(planned, 11 + scale[0] * 10L + scale[1], 600);
            int cut = events.size() / 2;
            List<String> stock = AcceleratedGroupAggOperatorTest.rescaled(planned, planned.stock()::newStock, events,
                    cut, scale[0], scale[1]);
            assertEquals(stock, AcceleratedGroupAggOperatorTest.rescaled(planned, planned::newAccelerated, events, cut,
                    scale[0], scale[1]), scale[0] + " -> " + scale[1] + " subtasks");
        }
    }
}
