package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * A stateful operator between a rows stage and an encode stage: the plan has a stock part exactly
 * when some operator between the Kafka source and the sink stays stock, on plans of Flink's own
 * planner.
 */
class AcceleratedUpstreamTest {
    private static final String EVENTS = "CREATE TABLE events (k STRING, x BIGINT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH ('connector' = 'kafka', 'topic' = 'events',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json');\n";
    private static final String TOTALS = "CREATE TABLE totals (k STRING, n BIGINT, total BIGINT,"
            + " PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'upsert-kafka', 'topic' = 'totals',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json');\n";
    private static final String GROUP_AGG = EVENTS + TOTALS
            + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;";
    private static final String WINDOW_AGG = EVENTS
            + "CREATE TABLE per_window (k STRING, window_end TIMESTAMP(3), n BIGINT) WITH ('connector' = 'kafka',"
            + " 'topic' = 'per_window', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');\n"
            + "INSERT INTO per_window SELECT k, window_end, COUNT(*)"
            + " FROM TABLE(TUMBLE(TABLE events, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end;";

    private static AccelerationReport report(String sql, String... options) {
        SqlPlans plans = new SqlPlans();
        plans.set(AcceleratorOptions.UPSERT_ENCODE_STAGES.key(), "true");
        plans.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        ExecNodeGraph current = plans.plan(sql);
        AccelerationReport report = new AccelerationReport();
        for (RewriteRule rule : RewriteRules.all()) {
            current = rule.apply(current, plans.config(), report);
        }
        return report;
    }

    @Test
    void anAcceleratedGroupAggregateBetweenARowsStageAndAnEncodeStageLeavesNoStockPart() {
        AccelerationReport report = report(GROUP_AGG, AcceleratorOptions.GROUP_AGGREGATE.key(), "true");
        assertEquals(List.of(), report.stockParts());
    }

    @Test
    void anAcceleratedWindowAggregateIntoAKafkaSinkLeavesNoStockPart() {
        AccelerationReport report = report(WINDOW_AGG, AcceleratorOptions.WINDOW_AGGREGATE.key(), "true");
        assertEquals(List.of(), report.stockParts());
    }

    @Test
    void aStockGroupAggregateBeforeTheEncodeStageKeepsTheSinksLine() {
        AccelerationReport report = report(GROUP_AGG);
        assertEquals(List.of("not a segment: default_catalog.default_database.totals: sink connector is 'upsert-kafka',"
                + " whose changelog only an encode stage writes, not a whole segment"), report.stockParts());
    }

    @Test
    void aStockWindowAggregateBeforeTheEncodeStageKeepsTheSinksLine() {
        AccelerationReport report = report(WINDOW_AGG);
        assertEquals(List.of("not a segment: default_catalog.default_database.per_window: fed by"
                + " StreamExecWindowAggregate, not by Calcs over a Kafka source"), report.stockParts());
    }

    @Test
    void aStockCalcBeforeAnAcceleratedDeduplicationKeepsTheSinksLine() {
        String sql = "CREATE TABLE events (k STRING, x BIGINT, pt AS PROCTIME()) WITH ('connector' = 'kafka',"
                + " 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');\n" + TOTALS
                + "INSERT INTO totals SELECT k, x, x FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY pt DESC)"
                + " AS rn FROM events WHERE k IS NOT NULL) WHERE rn = 1;";
        AccelerationReport report = report(sql, AcceleratorOptions.DEDUPLICATE.key(), "true");
        assertTrue(report.deduplications().get(0).accelerated(), report.deduplications().toString());
        assertEquals(1, report.stockParts().size(), report.stockParts().toString());
    }
}
