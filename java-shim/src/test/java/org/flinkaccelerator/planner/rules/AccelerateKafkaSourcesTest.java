package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.transformations.SideOutputTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.planner.GraphEdges;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SideOutputExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingSource;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;
import org.junit.jupiter.api.Test;

/**
 * Partial acceleration on real plans: the Kafka source (and the Calcs it can take) of a query
 * that is no whole segment becomes a raw source and a rows stage feeding the stock operators;
 * what cannot be run exactly stays as it was, with its reason in the report.
 */
class AccelerateKafkaSourcesTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    private static String golden(String name) throws Exception {
        return Files.readString(GOLDEN.resolve(name + ".sql"), StandardCharsets.UTF_8);
    }

    /** Both rules in planner order, as the hook applies them. */
    private static ExecNodeGraph rewrite(SqlPlans plans, ExecNodeGraph graph, AccelerationReport report) {
        ExecNodeGraph segments = new ExportKafkaSegments().apply(graph, plans.config(), report);
        return new AccelerateKafkaSources().apply(segments, plans.config(), report);
    }

    private static ExecNode<?> input(ExecNode<?> node) {
        return node.getInputEdges().get(0).getSource();
    }

    @Test
    void aCalcWithAnUnsupportedFunctionReadsTheRowsOfAnAcceleratedSource() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(golden("rows_regexp"));
        StreamExecCalc calc = assertInstanceOf(StreamExecCalc.class, input(graph.getRootNodes().get(0)));
        StreamExecTableSourceScan original = assertInstanceOf(StreamExecTableSourceScan.class, input(calc));
        AccelerationReport report = new AccelerationReport();
        GraphEdges edges = GraphEdges.of(graph);
        ExecNodeGraph rewritten = rewrite(plans, graph, report);
        assertNotSame(graph, rewritten);

        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        assertSame(calc, input(sink), "Flink's own Calc stays");
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class, input(calc));
        assertEquals("Accelerated[bid-rows]", accelerated.getDescription());
        assertEquals(original.getOutputType(), accelerated.getOutputType(), "the Calc reads the rows it read before");
        assertEquals(original.getOutputType(), accelerated.spec().rows());
        StreamExecTableSourceScan raw = assertInstanceOf(StreamExecTableSourceScan.class, input(accelerated));
        assertEquals("raw", raw.getTableSourceSpec().getContextResolvedTable().getResolvedTable().getOptions()
                .get("format"));

        assertTrue(transformationNames(plans.translate(rewritten)).contains("Accelerated[bid-rows]"));
        edges.restore(); // as the planner does after translating, so the report shows Flink's plan
        String rendered = report.render(graph);
        assertTrue(rendered.contains("[accelerated (partial): Accelerated[bid-rows], rows to stock operators; the next"
                + " calc stays stock: calcs: calc 1 of 1: REGEXP_EXTRACT("),
                rendered);
        assertTrue(rendered.contains("Partly accelerated.\nRuns on stock Flink:\n  segment bid-to-out_bid: "),
                rendered);
        assertTrue(report.stockParts().stream().anyMatch(p -> p.contains("REGEXP_EXTRACT")), report.stockParts().toString());
    }

    @Test
    void theCalcBeforeAnAggregationRunsAcceleratedAndFeedsFlinksExchange() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(golden("rows_group_aggregate"));
        List<ExecNode<?>> exchanges = nodes(graph, StreamExecExchange.class);
        assertEquals(1, exchanges.size());
        StreamExecExchange exchange = (StreamExecExchange) exchanges.get(0);
        StreamExecCalc calc = assertInstanceOf(StreamExecCalc.class, input(exchange));
        ExecEdge before = exchange.getInputEdges().get(0);

        ExecNodeGraph rewritten = rewrite(plans, graph, new AccelerationReport());
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class, input(exchange));
        assertEquals(calc.getOutputType(), accelerated.getOutputType());
        assertSame(before.getShuffle(), exchange.getInputEdges().get(0).getShuffle());
        assertTrue(accelerated.spec().descriptorJson().contains("\"encode\": null"));
        assertTrue(nodes(rewritten, StreamExecCalc.class).isEmpty(), "the Calc runs in the sidecar");
        List<String> names = transformationNames(plans.translate(rewritten));
        assertTrue(names.contains("Accelerated[bid-rows]"), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.startsWith("GroupAggregate")), names.toString());
    }

    @Test
    void aSharedSourceIsDecodedOnceWithEachBranchsCalcAndTheOthersOnSideOutputs() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(golden("rows_shared_source"));
        ExecNode<?> union = input(graph.getRootNodes().get(0));
        List<ExecNode<?>> calcs = union.getInputEdges().stream().<ExecNode<?>>map(ExecEdge::getSource).toList();
        calcs.forEach(c -> assertInstanceOf(StreamExecCalc.class, c, "one Calc per side of the UNION ALL"));
        assertSame(input(calcs.get(0)), input(calcs.get(1)), "both read one source");
        AccelerationReport report = new AccelerationReport();
        ExecNodeGraph rewritten = rewrite(plans, graph, report);

        assertTrue(nodes(rewritten, StreamExecCalc.class).isEmpty(), "both Calcs run in the sidecar");
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class, input(union));
        assertEquals(1, accelerated.spec().sideRows().size());
        SideOutputExecNode side = assertInstanceOf(SideOutputExecNode.class,
                union.getInputEdges().get(1).getSource(), "the union's second input reads the second branch");
        assertSame(accelerated, input(side));
        assertEquals(calcs.get(1).getOutputType(), side.getOutputType());
        JsonNode descriptor = new ObjectMapper().readTree(accelerated.spec().descriptorJson());
        assertEquals(1, descriptor.path("branches").size());
        assertEquals(1, nodes(rewritten, StreamExecTableSourceScan.class).size(), "the topic is read once");

        List<Transformation<?>> translated = plans.translate(rewritten);
        List<Transformation<?>> all = new ArrayList<>();
        Deque<Transformation<?>> pending = new ArrayDeque<>(translated);
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (!all.contains(t)) {
                all.add(t);
                pending.addAll(t.getInputs());
            }
        }
        SideOutputTransformation<?> sideOutput = (SideOutputTransformation<?>) all.stream()
                .filter(t -> t instanceof SideOutputTransformation).findFirst().orElseThrow();
        assertEquals(accelerated.spec().sideOutput(1), sideOutput.getOutputTag());
        assertEquals("Accelerated[bid-rows]", sideOutput.getInputs().get(0).getName());
        assertEquals(1, all.stream().filter(t -> t.getName().equals("Accelerated[bid-rows]")).count());
        assertTrue(report.render(graph).contains("Accelerated[bid-rows]"), report.render(graph));
    }

    @Test
    void aKeyedSourceReadsKeyAndValueBytesAndDecodesBothInTheSidecar() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(golden("rows_keyed_aggregate"));
        StreamExecExchange exchange = (StreamExecExchange) nodes(graph, StreamExecExchange.class).get(0);
        ExecNode<?> calc = input(exchange);
        rewrite(plans, graph, new AccelerationReport());
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class, input(exchange));
        assertEquals(calc.getOutputType(), accelerated.getOutputType());
        assertTrue(accelerated.spec().descriptorJson().contains("\"decode_key\""));
        StreamExecTableSourceScan raw = assertInstanceOf(StreamExecTableSourceScan.class, input(accelerated));
        assertEquals("ROW<`value` BYTES, `key` BYTES, `partition` INT NOT NULL, `offset` BIGINT NOT NULL>",
                raw.getOutputType().asSummaryString());
    }

    @Test
    void aJsonSourceOnFlinksTreeBasedDecoderStaysStockSayingWhy() throws Exception {
        SqlPlans plans = new SqlPlans();
        String sql = golden("rows_regexp");
        assertTrue(sql.contains("'format' = 'json'"), sql);
        String treeBased = sql.replace("'format' = 'json'",
                "'format' = 'json', 'json.decode.json-parser.enabled' = 'false'");
        if (EnvironmentInformation.getVersion().startsWith("1.20.")) {
            // 1.20's json format has no such option: stock Flink rejects the table before any rule runs.
            ValidationException rejected = assertThrows(ValidationException.class, () -> plans.plan(treeBased));
            assertTrue(ExceptionUtils.findThrowableWithMessage(rejected, "json.decode.json-parser.enabled").isPresent(),
                    ExceptionUtils.stringifyException(rejected));
            return;
        }
        ExecNodeGraph graph = plans.plan(treeBased);
        AccelerationReport report = new AccelerationReport();
        assertSame(graph, rewrite(plans, graph, report));
        assertTrue(report.stockParts().stream().anyMatch(p -> p.startsWith("segment bid-rows: ")
                && p.contains("selects Flink's tree-based json decoder")), report.stockParts().toString());
    }

    @Test
    void aJsonSourceWithABytesColumnRunsAsARowsStage() throws Exception {
        SqlPlans plans = new SqlPlans();
        String sql = golden("rows_regexp");
        assertTrue(sql.contains("REGEXP_EXTRACT(url,"), sql);
        ExecNodeGraph graph = plans.plan(sql.replace("extra STRING)", "extra BYTES)")
                .replace("REGEXP_EXTRACT(url,", "REGEXP_EXTRACT(url || CAST(extra AS STRING),"));
        ExecNodeGraph rewritten = rewrite(plans, graph, new AccelerationReport());
        AcceleratedExecNode stage = (AcceleratedExecNode) nodes(rewritten, AcceleratedExecNode.class).get(0);
        String descriptor = stage.spec().descriptorJson();
        assertTrue(descriptor.contains("`extra` VARBINARY(2147483647)"), descriptor);
        List<String> names = transformationNames(plans.translate(rewritten));
        assertTrue(names.contains("Accelerated[bid-rows]"), names.toString());
    }

    private static String windowed(String options) throws Exception {
        return golden("rows_group_aggregate")
                .replace("extra STRING) WITH (", "extra STRING, WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '2'"
                        + " SECOND) WITH (" + options)
                .replace("GROUP BY channel", "GROUP BY channel, TUMBLE(`dateTime`, INTERVAL '10' SECOND)");
    }

    @Test
    void aSourceWithAWatermarkRunsAsARowsStageThatGeneratesItPerSplit() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(windowed("'scan.watermark.emit.strategy' = 'on-event', "
                + "'scan.watermark.idle-timeout' = '3 s', "));
        ExecNodeGraph rewritten = rewrite(plans, graph, new AccelerationReport());
        AcceleratedExecNode stage = (AcceleratedExecNode) nodes(rewritten, AcceleratedExecNode.class).get(0);
        assertEquals(new WatermarkSpec(true, Duration.ofSeconds(3)), stage.spec().watermarks());
        String descriptor = stage.spec().descriptorJson();
        JsonNode fields = new ObjectMapper().readTree(descriptor).path("watermark").path("fields");
        assertEquals("watermark TIMESTAMP(3), $message INT NOT NULL", fields.get(0).path("name").asText() + " "
                + fields.get(0).path("type").asText() + ", " + fields.get(1).path("name").asText() + " "
                + fields.get(1).path("type").asText(), descriptor);
        assertTrue(descriptor.contains("flink_timestamp_plus_millis"), descriptor);
        // The raw source announces its splits to the operator.
        List<Transformation<?>> sources = new ArrayList<>();
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(rewritten));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof SourceTransformation<?, ?, ?>) {
                sources.add(t);
            }
            pending.addAll(t.getInputs());
        }
        assertEquals(1, sources.size());
        assertInstanceOf(SplitAnnouncingSource.class, ((SourceTransformation<?, ?, ?>) sources.get(0)).getSource());
    }

    @Test
    void theDefaultsArePeriodicEmissionAndNoIdleness() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph rewritten = rewrite(plans, plans.plan(windowed("")), new AccelerationReport());
        AcceleratedExecNode stage = (AcceleratedExecNode) nodes(rewritten, AcceleratedExecNode.class).get(0);
        assertEquals(new WatermarkSpec(false, Duration.ZERO), stage.spec().watermarks());
    }

    @Test
    void aSourceWithWatermarkAlignmentStaysStockSayingWhy() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(windowed("'scan.watermark.alignment.group' = 'g', "
                + "'scan.watermark.alignment.max-drift' = '1 min', "));
        AccelerationReport report = new AccelerationReport();
        assertSame(graph, rewrite(plans, graph, report));
        assertTrue(report.stockParts().stream().anyMatch(p -> p.startsWith("segment bid-rows: ")
                && p.contains("watermark alignment")), report.stockParts().toString());
        assertFalse(report.isPartial());
    }

    @Test
    void aWholeSegmentIsLeftToTheSegmentRule() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph segments = new ExportKafkaSegments().apply(plans.plan(golden("nexmark_q2")), plans.config());
        assertSame(segments, new AccelerateKafkaSources().apply(segments, plans.config()));
    }

    /** The nodes of {@code kind} reachable from the graph's roots, each once. */
    static List<ExecNode<?>> nodes(ExecNodeGraph graph, Class<?> kind) {
        List<ExecNode<?>> out = new ArrayList<>();
        Deque<ExecNode<?>> pending = new ArrayDeque<>(graph.getRootNodes());
        while (!pending.isEmpty()) {
            ExecNode<?> node = pending.pop();
            if (kind.isInstance(node) && !out.contains(node)) {
                out.add(node);
            }
            node.getInputEdges().forEach(e -> pending.push(e.getSource()));
        }
        return out;
    }

    static List<String> transformationNames(List<Transformation<?>> roots) {
        List<String> names = new ArrayList<>();
        Deque<Transformation<?>> pending = new ArrayDeque<>(roots);
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            names.add(t.getName());
            pending.addAll(t.getInputs());
        }
        return names;
    }
}
