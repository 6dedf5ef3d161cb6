package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.planner.stage.UpsertKafkaSinks;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * Encode stages for 'upsert-kafka' sinks on plans of Flink's own planner: the sink after a stock
 * group aggregate becomes the accelerated operator and an upsert-kafka raw twin that takes the
 * changelog the planner gave the original (so Flink's own sink writes deletes as tombstones), and
 * what the stage does not reproduce keeps the sink, or the Calc before it, stock with its reason.
 */
class AccelerateUpsertKafkaSinksTest {
    private static final String SOURCE = "CREATE TABLE events (k STRING, x BIGINT) WITH ('connector' = 'kafka',"
            + " 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');\n";

    private static String sink(String columns, String options) {
        return "CREATE TABLE totals (" + columns + ") WITH ('connector' = 'upsert-kafka', 'topic' = 'totals',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json',"
                + " 'value.format' = 'json'" + options + ");\n";
    }

    private static final String TOTALS = "k STRING, n BIGINT, total BIGINT, PRIMARY KEY (k) NOT ENFORCED";

    private static ExecNode<?> input(ExecNode<?> node) {
        return node.getInputEdges().get(0).getSource();
    }

    private record Rewritten(ExecNodeGraph original, ExecNodeGraph graph, AccelerationReport report, SqlPlans plans) {
        StreamExecSink sink() {
            return (StreamExecSink) graph.getRootNodes().get(0);
        }

        StreamExecSink originalSink() {
            return (StreamExecSink) original.getRootNodes().get(0);
        }

        String reasons() {
            return report.segments().toString();
        }
    }

    /** The plan rewritten at the default of 'accelerator.encode-stages.upsert.enabled' (on). */
    private static Rewritten rewrite(String sql) {
        return rewrite(sql, null);
    }

    private static Rewritten rewrite(String sql, Boolean upsertStages) {
        SqlPlans plans = new SqlPlans();
        if (upsertStages != null) {
            plans.set(AcceleratorOptions.UPSERT_ENCODE_STAGES.key(), String.valueOf(upsertStages));
        }
        ExecNodeGraph graph = plans.plan(sql);
        AccelerationReport report = new AccelerationReport();
        ExecNodeGraph current = graph;
        for (RewriteRule rule : RewriteRules.all()) {
            current = rule.apply(current, plans.config(), report);
        }
        return new Rewritten(graph, current, report, plans);
    }

    @Test
    void theSinkAfterAGroupAggregateBecomesAnEncodeStageThatKeepsTheSinksChangelog() throws Exception {
        Rewritten r = rewrite(SOURCE + sink(TOTALS, "")
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;");
        ChangelogMode stockMode = UpsertKafkaSinks.inputChangelogMode(r.originalSink());
        assertTrue(stockMode.contains(RowKind.UPDATE_AFTER), stockMode.toString());
        assertFalse(stockMode.contains(RowKind.UPDATE_BEFORE), "an upsert sink keyed as the aggregate takes no -U");

        StreamExecSink sink = r.sink();
        AcceleratedExecNode encode = assertInstanceOf(AcceleratedExecNode.class, input(sink));
        assertEquals("Accelerated[totals-encode]", encode.getDescription());
        assertInstanceOf(StreamExecGroupAggregate.class, input(encode), "fed by the stock group aggregate");
        assertEquals(stockMode, UpsertKafkaSinks.inputChangelogMode(sink), "the twin takes the original's changelog");

        ContextResolvedTable twin = sink.getTableSinkSpec().getContextResolvedTable();
        Map<String, String> options = twin.getResolvedTable().getOptions();
        assertEquals("upsert-kafka", options.get("connector"), "Flink's own upsert sink writes the tombstones");
        assertEquals("raw", options.get("key.format"));
        assertEquals("raw", options.get("value.format"));
        assertEquals("EXCEPT_KEY", options.get("value.fields-include"));
        assertFalse(options.containsKey("key.fields"), "upsert-kafka takes its key from the primary key");
        assertEquals(List.of("key"), twin.getResolvedSchema().getPrimaryKey().orElseThrow().getColumns());

        JsonNode descriptor = new ObjectMapper().readTree(encode.spec().descriptorJson());
        JsonNode key = descriptor.path("encode_key");
        assertEquals("json", key.path("format").asText(), descriptor.toString());
        assertEquals("[\"k\"]", key.path("fields").toString(), "the primary key is the message key");

        List<String> names = AccelerateKafkaSourcesTest.transformationNames(r.plans().translate(r.graph()));
        assertTrue(names.contains("Accelerated[totals-encode]"), names.toString());
    }

    @Test
    void aHavingFilterBeforeTheUpsertSinkStaysStockAndTheUpdateBeforesReachTheTwin() {
        Rewritten r = rewrite(SOURCE + sink(TOTALS, "")
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k HAVING SUM(x) > 10;");
        ChangelogMode stockMode = UpsertKafkaSinks.inputChangelogMode(r.originalSink());
        assertTrue(stockMode.contains(RowKind.UPDATE_BEFORE), "the filter needs -U to retract: " + stockMode);

        AcceleratedExecNode encode = assertInstanceOf(AcceleratedExecNode.class, input(r.sink()));
        StreamExecCalc having = assertInstanceOf(StreamExecCalc.class, input(encode), "the filtering Calc stays");
        assertSame(input(r.originalSink()), having);
        assertEquals(stockMode, UpsertKafkaSinks.inputChangelogMode(r.sink()));
        assertTrue(r.reasons().contains("filters an updating input"), r.reasons());
    }

    @Test
    void switchedOffTheUpsertSinkStaysStockNamingTheOption() {
        Rewritten r = rewrite(SOURCE + sink(TOTALS, "")
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;", false);
        assertSame(r.originalSink(), r.sink());
        assertTrue(r.reasons().contains("'accelerator.encode-stages.upsert.enabled': true"), r.reasons());
    }

    @Test
    void theReducingBufferKeepsTheSinkStockWithItsReason() {
        Rewritten r = rewrite(SOURCE + sink(TOTALS,
                ", 'sink.buffer-flush.max-rows' = '10', 'sink.buffer-flush.interval' = '1s'")
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;");
        assertSame(r.originalSink(), r.sink());
        assertTrue(r.reasons().contains("ReducingUpsertSink"), r.reasons());
    }

    @Test
    void aSinkWhosePrimaryKeyIsNotTheUpsertKeyKeepsFlinksMaterializerStock() {
        Rewritten r = rewrite(SOURCE + sink("k STRING, n BIGINT, total BIGINT, PRIMARY KEY (total) NOT ENFORCED", "")
                + "INSERT INTO totals SELECT k, COUNT(*), SUM(x) FROM events GROUP BY k;");
        assertSame(r.originalSink(), r.sink());
        assertTrue(r.reasons().contains("SinkUpsertMaterializer"), r.reasons());
    }
}
