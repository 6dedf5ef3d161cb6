package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.GraphEdges;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * The local phase of a two-phase window aggregate folded into the rows stage that reads its
 * source (accelerator.window-aggregate.local-phase.enabled), on plans of Flink's own planner: the
 * stock {@code StreamExecLocalWindowAggregate} leaves the graph, its exchange reads the stage, whose
 * rows are exactly the Local's output type; where the fold would not be exact, the Local stays with
 * its reason in the report.
 */
class LocalPhaseFoldTest {
    private static final String SOURCE = "CREATE TABLE bids (auction BIGINT, bidder STRING, price INT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json'%s);\n";
    private static final String SINK = "CREATE TABLE out_t (auction BIGINT, ws TIMESTAMP(3), n BIGINT, s INT, m INT)"
            + " WITH ('connector' = 'blackhole');\n";
    private static final String QUERY = "INSERT INTO out_t SELECT auction, window_start, COUNT(*), SUM(price), %s(price)"
            + " FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND))"
            + " GROUP BY auction, window_start, window_end;\n";

    private static ExecNodeGraph rewrite(SqlPlans plans, ExecNodeGraph graph, AccelerationReport report) {
        ExecNodeGraph segments = new ExportKafkaSegments().apply(graph, plans.config(), report);
        return new AccelerateKafkaSources().apply(segments, plans.config(), report);
    }

    private static SqlPlans plans(boolean enabled) {
        return new SqlPlans().set("accelerator.window-aggregate.local-phase.enabled", String.valueOf(enabled));
    }

    @Test
    void theLocalPhaseLeavesTheGraphAndItsExchangeReadsTheStageInItsOutputType() throws Exception {
        SqlPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(String.format(SOURCE, "") + SINK + String.format(QUERY, "MAX"));
        StreamExecLocalWindowAggregate local = (StreamExecLocalWindowAggregate) AccelerateKafkaSourcesTest.nodes(graph,
                StreamExecLocalWindowAggregate.class).get(0);
        StreamExecExchange exchange = (StreamExecExchange) AccelerateKafkaSourcesTest.nodes(graph, StreamExecExchange.class).get(0);
        assertSame(local, exchange.getInputEdges().get(0).getSource());
        AccelerationReport report = new AccelerationReport();
        GraphEdges edges = GraphEdges.of(graph);
        ExecNodeGraph rewritten = rewrite(plans, graph, report);

        assertTrue(AccelerateKafkaSourcesTest.nodes(rewritten, StreamExecLocalWindowAggregate.class).isEmpty(), "the Local runs in the stage");
        AcceleratedExecNode stage = assertInstanceOf(AcceleratedExecNode.class,
                exchange.getInputEdges().get(0).getSource(), "the exchange reads the stage");
        assertEquals(local.getOutputType(), stage.getOutputType());
        assertEquals(local.getOutputType(), stage.spec().rows(), "the stage emits the Local's partial rows");
        assertEquals(1, AccelerateKafkaSourcesTest.nodes(rewritten, StreamExecGlobalWindowAggregate.class).size(), "the global phase stays");
        JsonNode section = new ObjectMapper().readTree(stage.spec().descriptorJson()).path("local_window_agg");
        assertEquals("ts", section.path("time").asText());
        assertEquals("[\"auction\"]", section.path("keys").toString());
        assertEquals("hop", section.path("window").path("type").asText());
        assertEquals(2000, section.path("window").path("slide_ms").asLong());
        List<String> functions = new ArrayList<>();
        section.path("aggregates").forEach(a -> functions.add(a.path("function").asText() + ":" + a.path("acc").asText()));
        assertEquals(List.of("count1:BIGINT", "sum:INT", "max:INT"), functions);
        RowType out = (RowType) local.getOutputType();
        List<String> names = new ArrayList<>();
        section.path("output").path("fields").forEach(f -> names.add(f.path("name").asText()));
        assertEquals(out.getFieldNames(), names);

        List<String> transformations = AccelerateKafkaSourcesTest.transformationNames(plans.translate(rewritten));
        assertTrue(transformations.stream().noneMatch(n -> n.startsWith("LocalWindowAggregate")), transformations.toString());
        edges.restore();
        String rendered = report.render(graph);
        assertTrue(rendered.lines().anyMatch(l -> l.contains("LocalWindowAggregate(groupBy=[auction]")
                && l.contains("[accelerated (partial): Accelerated[bids-rows]")), rendered);
    }

    @Test
    void withTheOptionOffTheLocalPhaseStaysAsItWas() {
        SqlPlans plans = plans(false);
        ExecNodeGraph graph = plans.plan(String.format(SOURCE, "") + SINK + String.format(QUERY, "MAX"));
        ExecNodeGraph rewritten = rewrite(plans, graph, new AccelerationReport());
        StreamExecLocalWindowAggregate local = (StreamExecLocalWindowAggregate) AccelerateKafkaSourcesTest.nodes(rewritten,
                StreamExecLocalWindowAggregate.class).get(0);
        assertInstanceOf(AcceleratedExecNode.class, local.getInputEdges().get(0).getSource());
    }

    @Test
    void perEventWatermarksKeepTheLocalPhaseStockSayingWhy() {
        SqlPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(String.format(SOURCE, ", 'scan.watermark.emit.strategy' = 'on-event'") + SINK
                + String.format(QUERY, "MAX"));
        AccelerationReport report = new AccelerationReport();
        GraphEdges edges = GraphEdges.of(graph);
        ExecNodeGraph rewritten = rewrite(plans, graph, report);
        assertEquals(1, AccelerateKafkaSourcesTest.nodes(rewritten, StreamExecLocalWindowAggregate.class).size());
        edges.restore();
        String rendered = report.render(graph);
        String why = "local window aggregate: the source emits a watermark per event";
        assertTrue(rendered.contains("[stock: local window aggregate bids-rows-local-window-agg: " + why), rendered);
        // Named as what it is among the stock parts, not as a segment.
        assertTrue(report.stockParts().stream().anyMatch(p -> p.startsWith("local window aggregate"
                + " bids-rows-local-window-agg: " + why)), report.stockParts().toString());
    }

    @Test
    void aFunctionWhoseSplitChangesItsResultKeepsTheLocalPhaseStock() {
        SqlPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(String.format(SOURCE, "")
                + "CREATE TABLE out_t (auction BIGINT, ws TIMESTAMP(3), d DOUBLE) WITH ('connector' = 'blackhole');\n"
                + "INSERT INTO out_t SELECT auction, window_start, SUM(CAST(price AS DOUBLE))"
                + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                + " GROUP BY auction, window_start, window_end;\n");
        AccelerationReport report = new AccelerationReport();
        GraphEdges edges = GraphEdges.of(graph);
        ExecNodeGraph rewritten = rewrite(plans, graph, report);
        assertEquals(1, AccelerateKafkaSourcesTest.nodes(rewritten, StreamExecLocalWindowAggregate.class).size());
        edges.restore();
        String rendered = report.render(graph);
        assertTrue(rendered.contains("is not folded: only COUNT(*), COUNT(x) and SUM, MIN, MAX over TINYINT"), rendered);
    }
}
