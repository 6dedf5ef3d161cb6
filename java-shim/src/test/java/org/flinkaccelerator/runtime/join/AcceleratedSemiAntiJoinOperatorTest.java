package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.table.runtime.operators.join.stream.StreamingSemiAntiJoinOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's {@code StreamingSemiAntiJoinOperator} and the accelerated join, planned from the
 * same SQL ({@code IN}, {@code EXISTS} and {@code NOT EXISTS} subqueries), on the same random
 * interleaved streams in Flink's keyed two-input harness (AcceleratedJoinOperatorTest's comparison:
 * kinds, timestamps, binary rows, order and watermarks; batches of 1, 7 and 10,000 rows; restores
 * 1 -> 1, 2 -> 1, 2 -> 3): a left row comes out when it arrives matched (SEMI) or unmatched (ANTI),
 * and a right row giving held left rows their first match emits each of them (SEMI, +I) or retracts
 * them (ANTI, -D), once per copy of a repeated left row, in the left state's order: on RocksDB and
 * on the hashmap backend with hot keys and tree bins, with and without a non-equi condition.
 */
class AcceleratedSemiAntiJoinOperatorTest {
    /** {@code IN}: a SEMI join on {@code seller = id}. */
    static final String IN = "SELECT a.item, a.price, a.seller FROM auctions AS a WHERE a.seller IN"
            + " (SELECT id FROM persons)";
    /**
     * {@code EXISTS} with arithmetic across the sides, on nullable fields (NULL rejects a pair). (With an
     * {@code OR} of two correlated fields the planner decorrelates into an aggregate and joins instead.)
     */
    static final String EXISTS_ACROSS = "SELECT a.item, a.price FROM auctions AS a WHERE EXISTS (SELECT * FROM"
            + " persons AS p WHERE p.id = a.seller AND a.price > p.credit * 2)";
    /** {@code NOT EXISTS}: an ANTI join on {@code id = seller}. */
    static final String NOT_EXISTS = "SELECT a.item, a.price, a.seller FROM auctions AS a WHERE NOT EXISTS"
            + " (SELECT * FROM persons AS p WHERE p.id = a.seller)";
    /** {@code NOT EXISTS} with q4/q9's time range. */
    static final String NOT_EXISTS_BETWEEN = "SELECT a.item, a.ts, a.expires FROM auctions AS a WHERE NOT EXISTS"
            + " (SELECT * FROM persons AS p WHERE p.id = a.seller AND p.ts BETWEEN a.ts AND a.expires)";

    /**
     * {@code NOT IN}: an ANTI join without keys (every row on one key) on the null-aware condition
     * {@code seller IS NULL OR id IS NULL OR seller = id} (a NULL seller meets it at any right row).
     */
    static final String NOT_IN = "SELECT a.item, a.price, a.seller FROM auctions AS a WHERE a.seller NOT IN"
            + " (SELECT id FROM persons WHERE id IS NOT NULL)";
    /** {@code EXISTS} and {@code NOT EXISTS} with a range: left rows wait for a right row above their price. */
    static final String EXISTS_ABOVE = "SELECT a.item, a.price, a.seller FROM auctions AS a WHERE EXISTS (SELECT *"
            + " FROM persons AS p WHERE p.id = a.seller AND p.credit > a.price)";

    @ParameterizedTest
    @ValueSource(strings = {IN, EXISTS_ACROSS, NOT_EXISTS, NOT_EXISTS_BETWEEN})
    void sameOutputAsStockOnRocksDb(String query) throws Exception {
        JoinHarnesses.Planned planned = planned(query, "rocksdb");
        assertEmitsAtFirstMatches(planned, JoinHarnesses.stream(planned, 19, 800, 300, 60));
    }

    /**
     * Sellers from 300 values, so that left rows wait for a person of their seller on the one key;
     * no right row with a NULL id (the subquery's filter drops them; one would match every left row).
     */
    @Test
    void notInGivesStocksOutputOnRocksDb() throws Exception {
        JoinHarnesses.Planned planned = planned(NOT_IN, "rocksdb");
        List<JoinHarnesses.Event> events = JoinHarnesses.stream(planned, 19, 800, 300, 300).stream()
                .filter(e -> e.row() == null || e.left() || !e.row().isNullAt(0)).toList();
        assertEmitsAtFirstMatches(planned, events);
    }

    /**
     * On the hashmap backend, hundreds of distinct left rows per key and 40 sharing a bucket (a tree
     * bin), matched by the right rows whose credit is above their price: at a first match the
     * waiting left rows come out in the order of their key's HashMap.
     */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void sameOutputAsStockOnTheHashMapBackendWithHotKeysAndTreeBins(boolean anti) throws Exception {
        JoinHarnesses.Planned planned = planned(anti ? EXISTS_ABOVE.replace("EXISTS", "NOT EXISTS") : EXISTS_ABOVE,
                "hashmap");
        assertEmitsAtFirstMatches(planned, JoinHarnesses.hotLeftStream(planned, 23, 1600, 500, 40));
    }

    /** Stock keeps StreamingSemiAntiJoinOperator with mini-batch on: the join is accelerated all the same. */
    @Test
    void sameOutputAsStockWithMiniBatchOn() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(NOT_EXISTS, "hashmap", "table.exec.mini-batch.enabled",
                "true", "table.exec.mini-batch.allow-latency", "1 s", "table.exec.mini-batch.size", "100");
        assertInstanceOf(StreamingSemiAntiJoinOperator.class, planned.stock());
        assertEmitsAtFirstMatches(planned, JoinHarnesses.stream(planned, 29, 800, 300, 60));
    }

    private static JoinHarnesses.Planned planned(String query, String backend) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(query, backend);
        assertInstanceOf(StreamingSemiAntiJoinOperator.class, planned.stock());
        return planned;
    }

    /**
     * The comparison with stock (AcceleratedJoinOperatorTest's), on a stream where stock emits more
     * than 20 left rows at right rows (their first match: +I for SEMI, -D for ANTI, the only rows
     * with that kind) and more than 20 at left rows (+I).
     */
    private static void assertEmitsAtFirstMatches(JoinHarnesses.Planned planned, List<JoinHarnesses.Event> events)
            throws Exception {
        boolean anti = planned.spec().descriptor().path("join_type").asText().equals("ANTI");
        int[] records = planned.stockRecordsPerEvent(events);
        int onRight = 0;
        int onLeft = 0;
        for (int e = 0; e < events.size(); e++) {
            if (events.get(e).row() != null && events.get(e).left()) {
                onLeft += records[e];
            } else {
                onRight += records[e];
            }
        }
        assertTrue(onRight > 20 && onLeft > 20, "stock emitted " + onRight + " rows at right rows, " + onLeft
                + " at left rows");
        List<String> stock = planned.run(planned::newStock, events, List.of(), events.size(), 1, 1);
        long deletes = stock.stream().filter(line -> line.startsWith("-D")).count();
        long inserts = stock.stream().filter(line -> line.startsWith("+I")).count();
        assertTrue(anti ? deletes == onRight && inserts == onLeft : deletes == 0 && inserts == onLeft + onRight,
                "stock's " + deletes + " -D and " + inserts + " +I rows");
        AcceleratedJoinOperatorTest.assertSameOutputAsStock(planned, events, 0);
    }
}
