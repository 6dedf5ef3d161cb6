package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.table.planner.plan.abilities.source.ReadingMetadataSpec;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.planner.stage.TestProtos;
import org.junit.jupiter.api.Test;

/** The rule on real plans of golden queries: what it replaces, what it leaves alone, what Flink makes of it. */
class ExportKafkaSegmentsTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    private static String sql(String name) throws Exception {
        return Files.readString(GOLDEN.resolve(name + ".sql"), StandardCharsets.UTF_8);
    }

    @Test
    void aValueOnlyJsonSegmentBecomesRawSourceAcceleratedOperatorRawSink() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql("nexmark_q2"));
        ExecNodeGraph rewritten = new ExportKafkaSegments().apply(graph, plans.config());
        assertNotSame(graph, rewritten);

        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        Map<String, String> sinkOptions = sink.getTableSinkSpec().getContextResolvedTable().getResolvedTable().getOptions();
        assertEquals("raw", sinkOptions.get("format"));
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class,
                sink.getInputEdges().get(0).getSource());
        assertEquals("Accelerated[bid-to-out_bid]", accelerated.getDescription());
        assertTrue(accelerated.spec().descriptorJson().contains("\"row_type\""));
        StreamExecTableSourceScan source = assertInstanceOf(StreamExecTableSourceScan.class,
                accelerated.getInputEdges().get(0).getSource());
        Map<String, String> sourceOptions =
                source.getTableSourceSpec().getContextResolvedTable().getResolvedTable().getOptions();
        assertEquals("raw", sourceOptions.get("format"));
        assertEquals("earliest-offset", sourceOptions.get("scan.startup.mode"));
        assertEquals("latest-offset", sourceOptions.get("scan.bounded.mode"));

        List<String> names = transformationNames(plans.translate(rewritten));
        assertTrue(names.contains("Accelerated[bid-to-out_bid]"), names.toString());
    }

    @Test
    void metadataColumnsAreReadByTheRawSourceAfterTheValueAndNotTwiceForCoordinates() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph rewritten = new ExportKafkaSegments().apply(plans.plan(sql("metadata_columns")), plans.config());
        StreamExecTableSourceScan source = rawSource(rewritten);
        assertEquals("ROW<`value` BYTES, `partition` INT NOT NULL, `offset` BIGINT NOT NULL,"
                + " `timestamp` TIMESTAMP_LTZ(3) NOT NULL>", source.getOutputType().asSummaryString());
        ReadingMetadataSpec metadata = assertInstanceOf(ReadingMetadataSpec.class,
                source.getTableSourceSpec().getSourceAbilities().get(0));
        assertEquals(List.of("partition", "offset", "timestamp"), metadata.getMetadataKeys());
        assertTrue(transformationNames(plans.translate(rewritten)).contains("Accelerated[src-to-out_rows]"));
    }

    @Test
    void theStandardNexmarkTableIsReplacedWithoutItsWatermark() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql("nexmark_std_q0"));
        assertTrue(graph.getRootNodes().get(0).getInputEdges().get(0).getSource().getInputEdges().get(0).getSource()
                .getDescription().contains("watermark="), "Flink pushes the watermark into the scan");
        ExecNodeGraph rewritten = new ExportKafkaSegments().apply(graph, plans.config());
        StreamExecTableSourceScan source = rawSource(rewritten);
        // No watermark; only the coordinates that let a failure name its Kafka record.
        ReadingMetadataSpec metadata = assertInstanceOf(ReadingMetadataSpec.class,
                source.getTableSourceSpec().getSourceAbilities().get(0));
        assertEquals(1, source.getTableSourceSpec().getSourceAbilities().size());
        assertEquals(List.of("partition", "offset"), metadata.getMetadataKeys());
        assertEquals("ROW<`value` BYTES, `partition` INT NOT NULL, `offset` BIGINT NOT NULL>",
                source.getOutputType().asSummaryString());
        assertTrue(transformationNames(plans.translate(rewritten)).contains("Accelerated[nexmark-to-out_bid]"));
    }

    private static StreamExecTableSourceScan rawSource(ExecNodeGraph rewritten) {
        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class,
                sink.getInputEdges().get(0).getSource());
        return assertInstanceOf(StreamExecTableSourceScan.class, accelerated.getInputEdges().get(0).getSource());
    }

    @Test
    void aProtobufSegmentIsReplacedWithTheMessageSchemaInItsDescriptor() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql("protobuf_to_protobuf"));
        ClassLoader messages = TestProtos.compile(TestProtos.COMPAT).loader();
        ExecNodeGraph rewritten = TestProtos.withContextLoader(messages,
                () -> new ExportKafkaSegments().apply(graph, plans.config()));
        StreamExecTableSourceScan source = rawSource(rewritten);
        Map<String, String> options = source.getTableSourceSpec().getContextResolvedTable().getResolvedTable()
                .getOptions();
        assertEquals("raw", options.get("format"));
        assertTrue(options.keySet().stream().noneMatch(k -> k.startsWith("protobuf.")), options.toString());
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class,
                rewritten.getRootNodes().get(0).getInputEdges().get(0).getSource());
        assertTrue(accelerated.spec().descriptorJson().contains("\"accelerator.protobuf.message-name\": \"acc.compat.PricedBid\""),
                accelerated.spec().descriptorJson());
        // Flink translates the replacement without the message classes: only raw bytes cross it.
        assertTrue(transformationNames(plans.translate(rewritten)).contains("Accelerated[bid-to-priced]"));
    }

    @Test
    void aProtobufSegmentWhoseClassCannotBeLoadedIsLeftAlone() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql("protobuf_to_protobuf"));
        assertSame(graph, new ExportKafkaSegments().apply(graph, plans.config()), "no compiled classes in this loader");
    }

    @Test
    void fallbackSegmentsAreLeftAlone() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql("fallback_regexp"));
        assertSame(graph, new ExportKafkaSegments().apply(graph, plans.config()));
    }

    @Test
    void toTimestampLtzOfAStringStaysStockRatherThanFailingThePlan() {
        SqlPlans plans = new SqlPlans();
        String kafka = "'connector' = 'kafka', 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json'";
        String sql = "CREATE TABLE src (s STRING, ms BIGINT) WITH (" + kafka + ", 'topic' = 'src',"
                + " 'scan.startup.mode' = 'earliest-offset');\n"
                + "CREATE TABLE dst (r TIMESTAMP_LTZ(3), z TIMESTAMP_LTZ(3), e TIMESTAMP_LTZ(3)) WITH (" + kafka
                + ", 'topic' = 'dst');\n"
                + "INSERT INTO dst SELECT TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss'),"
                + " TO_TIMESTAMP_LTZ(s, 'yyyy-MM-dd HH:mm:ss', 'UTC'), TO_TIMESTAMP_LTZ(ms, 3) FROM src;";
        if (EnvironmentInformation.getVersion().startsWith("1.20.")) {
            // 1.20's TO_TIMESTAMP_LTZ takes a number and a precision only: stock Flink rejects the query.
            ValidationException rejected = assertThrows(ValidationException.class, () -> plans.plan(sql));
            assertTrue(ExceptionUtils.findThrowableWithMessage(rejected, "Cannot apply 'TO_TIMESTAMP_LTZ'").isPresent(),
                    ExceptionUtils.stringifyException(rejected));
            return;
        }
        ExecNodeGraph graph = plans.plan(sql);
        ExecNodeGraph rewritten = new ExportKafkaSegments().apply(graph, plans.config());
        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        assertEquals("Calc", sink.getInputEdges().get(0).getSource().getDescription().replaceAll("\\(.*", ""),
                "the Calc reading TO_TIMESTAMP_LTZ of a string stays stock");
    }

    private static List<String> transformationNames(List<Transformation<?>> roots) {
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
