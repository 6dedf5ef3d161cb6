package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's {@code StreamingJoinOperator} for LEFT, RIGHT and FULL joins and the accelerated
 * join, planned from the same SQL, on the same random interleaved streams in Flink's keyed
 * two-input harness (AcceleratedJoinOperatorTest's comparison: kinds, timestamps, binary rows,
 * order and watermarks; batches of 1, 7 and 10,000 rows; restores 1 -> 1, 2 -> 1, 2 -> 3): outer
 * rows without a match come out null-padded (+I), their first match retracts that row (-D) before
 * the join (+I), rows with a NULL key stay null-padded, on RocksDB and on the hashmap backend with
 * hot keys and tree bins, with and without a non-equi condition deciding the matches. Under
 * -Pflink-1.20 the stock operator is 1.20's, which retracts all of an input row's padded rows
 * before its first join (planner/join/JoinLine).
 */
class AcceleratedOuterJoinOperatorTest {

    private static String outer(String query, String type) {
        return query.replace(" JOIN ", " " + type + " JOIN ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"LEFT", "RIGHT", "FULL"})
    void sameOutputAsStockOnRocksDb(String type) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(outer(JoinHarnesses.QUERY, type), "rocksdb");
        assertRetractsNullPadding(planned, JoinHarnesses.stream(planned, 19, 800, 300, 60), 1, 20);
    }

    @ParameterizedTest
    @ValueSource(strings = {"LEFT", "FULL"})
    void sameOutputAsStockWithANonEquiConditionDecidingTheMatches(String type) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(outer(JoinHarnesses.ACROSS, type), "rocksdb");
        assertRetractsNullPadding(planned, JoinHarnesses.stream(planned, 19, 800, 300, 60), 1, 20);
    }

    @Test
    void sameOutputAsStockOnTheHashMapBackendWithHotKeysAndTreeBins() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(outer(JoinHarnesses.QUERY, "FULL"), "hashmap");
        assertRetractsNullPadding(planned, JoinHarnesses.hotStream(planned, 23, 1600, 500, 40), 2, 8);
    }

    @Test
    void sameOutputAsStockOnTheHashMapBackendForARightJoinWithAConditionOnTheMatches() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(outer(JoinHarnesses.BETWEEN, "RIGHT"), "hashmap");
        assertRetractsNullPadding(planned, JoinHarnesses.stream(planned, 29, 800, 300, 20), 1, 20);
    }

    /**
     * The comparison with stock, on streams where stock retracts more than {@code minimumDeletes} null-padded rows.
     */
    private static void assertRetractsNullPadding(JoinHarnesses.Planned planned, List<JoinHarnesses.Event> events,
            int joinedPerEvent, int minimumDeletes) throws Exception {
        List<String> stock = planned.run(planned::newStock, events, List.of(), events.size() / 2, 1, 1);
        long deletes = stock.stream().filter(line -> line.startsWith("-D")).count();
        assertTrue(deletes > minimumDeletes, "stock retracted " + deletes + " null-padded rows: " + stock.subList(0, 5));
        AcceleratedJoinOperatorTest.assertSameOutputAsStock(planned, events, joinedPerEvent);
    }
}
