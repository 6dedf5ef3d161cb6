package org.flinkaccelerator.planner.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * Which join inputs the planner knows to be insert-only, read from Flink's own plan of a join of
 * three Kafka tables: an INNER join's rows are inserts when both its inputs are (stock's
 * StreamingJoinOperator emits each joined row with its input row's kind), and so are a SEMI join's
 * (StreamingSemiAntiJoinOperator emits left rows with the kind of the row that matched them); an
 * outer join's are not (it retracts its null-padded rows), nor an ANTI join's (it retracts a left row
 * at its first match).
 */
class InsertOnlyInputsTest {
    private static final String TABLES = """
            CREATE TABLE bids (auction BIGINT, price BIGINT) WITH ('connector' = 'kafka', 'topic' = 'bids',
              'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE auctions (id BIGINT, seller BIGINT) WITH ('connector' = 'kafka', 'topic' = 'auctions',
              'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE persons (id BIGINT, name STRING) WITH ('connector' = 'kafka', 'topic' = 'persons',
              'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE results (auction BIGINT, price BIGINT, name STRING) WITH ('connector' = 'blackhole');
            """;

    /** The joins of the three-way join whose lower join is {@code lowerJoin}, sinks first. */
    private static List<FoundNode<JoinNode>> joins(String lowerJoin) {
        List<FoundNode<JoinNode>> found = JoinNode.find(new SqlPlans().plan(TABLES
                + "INSERT INTO results SELECT b.auction, b.price, p.name FROM bids AS b " + lowerJoin
                + " auctions AS a ON b.auction = a.id JOIN persons AS p ON a.seller = p.id;\n"));
        assertEquals(2, found.size(), found.toString());
        return found;
    }

    @Test
    void anInnerJoinOfInsertOnlyInputsFeedsTheNextJoinInsertsOnly() {
        for (FoundNode<JoinNode> join : joins("JOIN")) {
            assertNull(join.fields().leftInsertOnly(), join.node().getDescription());
            assertNull(join.fields().rightInsertOnly(), join.node().getDescription());
        }
    }

    /** The joins of a join of bids and persons whose bids are those {@code subquery} (IN / NOT EXISTS) keeps, sinks first. */
    private static List<FoundNode<JoinNode>> joinsAfter(String subquery) {
        List<FoundNode<JoinNode>> found = JoinNode.find(new SqlPlans().plan(TABLES
                + "INSERT INTO results SELECT b.auction, b.price, p.name FROM (SELECT * FROM bids AS b WHERE " + subquery
                + ") AS b JOIN persons AS p ON b.price = p.id;\n"));
        assertEquals(2, found.size(), found.toString());
        return found;
    }

    @Test
    void aSemiJoinOfInsertOnlyInputsFeedsTheNextJoinInsertsOnly() {
        for (FoundNode<JoinNode> join : joinsAfter("b.auction IN (SELECT id FROM auctions)")) {
            assertNull(join.fields().leftInsertOnly(), join.node().getDescription());
            assertNull(join.fields().rightInsertOnly(), join.node().getDescription());
        }
    }

    @Test
    void anAntiJoinBelowKeepsTheNextJoinsInputUnknown() {
        String upper = joinsAfter("NOT EXISTS (SELECT * FROM auctions AS a WHERE a.id = b.auction)").get(0).fields()
                .leftInsertOnly();
        assertTrue(upper != null && upper.contains("fed by Join(joinType=[LeftAntiJoin]"), String.valueOf(upper));
    }

    @Test
    void anOuterJoinBelowKeepsTheNextJoinsInputUnknown() {
        List<FoundNode<JoinNode>> found = joins("LEFT JOIN");
        String upper = found.get(0).fields().leftInsertOnly();
        assertTrue(upper != null && upper.contains("fed by Join(joinType=[LeftOuterJoin]"), String.valueOf(upper));
        assertNull(found.get(0).fields().rightInsertOnly());
        assertNull(found.get(1).fields().leftInsertOnly());
        assertNull(found.get(1).fields().rightInsertOnly());
    }

    /**
     * Nexmark q7's shape: bids joined with the highest price of each 10-second tumbling window. The
     * window aggregate emits each window once (an insert), so the join's right input is insert-only;
     * the two-phase plan's global window aggregate likewise.
     */
    @Test
    void aWindowAggregateFeedsTheJoinInsertsOnly() {
        for (String phases : List.of("ONE_PHASE", "TWO_PHASE")) {
            List<FoundNode<JoinNode>> found = JoinNode.find(new SqlPlans().set("table.optimizer.agg-phase-strategy", phases)
                    .plan("""
                    CREATE TABLE bid (auction BIGINT, price BIGINT, ts TIMESTAMP(3),
                      WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector' = 'kafka', 'topic' = 'bid',
                      'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',
                      'format' = 'json');
                    CREATE TABLE q7 (auction BIGINT, price BIGINT) WITH ('connector' = 'blackhole');
                    INSERT INTO q7 SELECT B.auction, B.price FROM bid AS B JOIN (
                      SELECT MAX(price) AS maxprice, window_end AS wend
                      FROM TABLE(TUMBLE(TABLE bid, DESCRIPTOR(ts), INTERVAL '10' SECOND))
                      GROUP BY window_start, window_end) AS B1
                    ON B.price = B1.maxprice WHERE B.ts BETWEEN B1.wend - INTERVAL '10' SECOND AND B1.wend;
                    """));
            assertEquals(1, found.size(), found.toString());
            assertNull(found.get(0).fields().leftInsertOnly(), phases);
            assertNull(found.get(0).fields().rightInsertOnly(), phases);
        }
    }
}
