package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.apache.flink.table.api.TableConfig;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.GraphEdges;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.junit.jupiter.api.Test;

/**
 * Partial acceleration at the sink on real plans: the Kafka sink (and the Calcs before it it can
 * take) of a query fed by a stock operator becomes an encode stage over that operator's rows and
 * a raw sink; what cannot be run exactly stays as it was, with its reason in the report.
 */
class AccelerateKafkaSinksTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    private static String golden(String name) throws Exception {
        return Files.readString(GOLDEN.resolve(name + ".sql"), StandardCharsets.UTF_8);
    }

    /** Planning with the accelerator's defaults (encode stages enabled). */
    private static SqlPlans plans() {
        return new SqlPlans();
    }

    /** The rules in planner order, as the hook applies them. */
    private static ExecNodeGraph rewrite(SqlPlans plans, ExecNodeGraph graph, AccelerationReport report) {
        ExecNodeGraph current = graph;
        for (RewriteRule rule : RewriteRules.all()) {
            current = rule.apply(current, plans.config(), report);
        }
        return current;
    }

    private static ExecNode<?> input(ExecNode<?> node) {
        return node.getInputEdges().get(0).getSource();
    }

    private static String format(StreamExecSink sink) {
        return sink.getTableSinkSpec().getContextResolvedTable().getResolvedTable().getOptions().get("format");
    }

    @Test
    void theCalcAfterAJoinAndTheJsonSinkRunAsAnEncodeStage() throws Exception {
        SqlPlans plans = plans();
        ExecNodeGraph graph = plans.plan(golden("encode_join"));
        StreamExecSink original = assertInstanceOf(StreamExecSink.class, graph.getRootNodes().get(0));
        StreamExecCalc calc = assertInstanceOf(StreamExecCalc.class, input(original));
        ExecNode<?> join = input(calc);
        AccelerationReport report = new AccelerationReport();
        GraphEdges edges = GraphEdges.of(graph);
        ExecNodeGraph rewritten = rewrite(plans, graph, report);

        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        assertEquals("raw", format(sink));
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class, input(sink));
        assertEquals("Accelerated[out_join-encode]", accelerated.getDescription());
        assertSame(join, input(accelerated), "the stage reads what the Calc read");
        assertEquals(join.getOutputType(), accelerated.spec().consumes());
        // The join's rows are (id, seller, category, id0, name): UPPER reads name, the Calc's
        // arithmetic id and its comparison category; seller and id0 reach nothing.
        assertEquals(BitSet.valueOf(new long[] {0b01010}), accelerated.spec().keepsLoneSurrogates(),
                "only columns no expression reads may carry a lone surrogate");
        assertSame(join, input(calc), "the nodes before keep their edges");
        List<String> names = AccelerateKafkaSourcesTest.transformationNames(plans.translate(rewritten));
        assertTrue(names.contains("Accelerated[out_join-encode]"), names.toString());

        edges.restore();
        String rendered = report.render(graph);
        assertTrue(rendered.contains("[accelerated (partial): Accelerated[out_join-encode], rows from stock"
                + " operators]"), rendered);
        assertTrue(rendered.contains("Partly accelerated."), rendered);
    }

    @Test
    void aCalcTheSidecarCannotRunStaysStockBetweenARowsStageAndAnEncodeStage() throws Exception {
        SqlPlans plans = plans();
        ExecNodeGraph graph = plans.plan(golden("rows_regexp"));
        StreamExecCalc calc = assertInstanceOf(StreamExecCalc.class, input(graph.getRootNodes().get(0)));
        AccelerationReport report = new AccelerationReport();
        ExecNodeGraph rewritten = rewrite(plans, graph, report);

        AcceleratedExecNode encode = assertInstanceOf(AcceleratedExecNode.class, input(rewritten.getRootNodes().get(0)));
        assertEquals("Accelerated[out_bid-encode]", encode.getDescription());
        assertSame(calc, input(encode), "Flink's own Calc stays");
        assertEquals(BitSet.valueOf(new long[] {0b11}), encode.spec().keepsLoneSurrogates(),
                "without Calcs, the json encoder reads every column as it is");
        AcceleratedExecNode rows = assertInstanceOf(AcceleratedExecNode.class, input(calc));
        assertEquals("Accelerated[bid-rows]", rows.getDescription());
        assertTrue(report.segments().stream().anyMatch(s -> s.name().equals("out_bid-encode")
                && s.reasons().stream().anyMatch(r -> r.contains("REGEXP_EXTRACT("))), report.segments().toString());
    }

    @Test
    void aColumnTheCalcProjectsAsItIsMayCarryLoneSurrogatesIntoJsonButNotIntoCsv() throws Exception {
        String sql = golden("encode_join").replace("SELECT UPPER(P.name),", "SELECT P.name,");
        assertEquals(BitSet.valueOf(new long[] {0b11010}), encodeStage(sql).spec().keepsLoneSurrogates());
        String json = "'format' = 'json'";
        int sinkFormat = sql.lastIndexOf(json);
        String csv = sql.substring(0, sinkFormat) + "'format' = 'csv'" + sql.substring(sinkFormat + json.length());
        assertEquals(new BitSet(), encodeStage(csv).spec().keepsLoneSurrogates(),
                "Flink's csv serializer fails on a lone surrogate, and so does the stage");
    }

    /** A stock source's own strings (a datagen table's) may hold a lone surrogate, chained as Java strings. */
    private static String fromDatagen(String select) {
        return "CREATE TABLE gen (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10');\n"
                + "CREATE TABLE out_gen (a STRING, b BIGINT) WITH ('connector' = 'kafka', 'topic' = 'out',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');\n"
                + "INSERT INTO out_gen " + select + " FROM gen WHERE id > 0;";
    }

    @Test
    void aCalcReadingTheStringsAStockSourceHandsOnStaysStock() throws Exception {
        SqlPlans plans = plans();
        ExecNodeGraph graph = plans.plan(fromDatagen("SELECT UPPER(s), id + 1"));
        StreamExecCalc calc = assertInstanceOf(StreamExecCalc.class, input(graph.getRootNodes().get(0)));
        AccelerationReport report = new AccelerationReport();
        AcceleratedExecNode encode = assertInstanceOf(AcceleratedExecNode.class,
                input(rewrite(plans, graph, report).getRootNodes().get(0)));
        assertSame(calc, input(encode), "the Calc reading s stays stock");
        assertTrue(report.segments().stream().anyMatch(seg -> seg.reasons().stream().anyMatch(
                r -> r.contains("string column s") && r.contains("lone UTF-16 surrogate"))), report.segments().toString());

        AcceleratedExecNode withCalc = encodeStage(fromDatagen("SELECT s, id + 1"));
        assertInstanceOf(StreamExecTableSourceScan.class, input(withCalc), "a Calc that only passes s on runs accelerated");
        assertEquals(BitSet.valueOf(new long[] {0b10}), withCalc.spec().keepsLoneSurrogates());
    }

    private static AcceleratedExecNode encodeStage(String sql) {
        return encodeStage(plans(), sql);
    }

    private static AcceleratedExecNode encodeStage(SqlPlans plans, String sql) {
        ExecNodeGraph rewritten = rewrite(plans, plans.plan(sql), new AccelerationReport());
        return assertInstanceOf(AcceleratedExecNode.class, input(rewritten.getRootNodes().get(0)));
    }

    @Test
    void aSinkWhoseFormatWritesStoredBytesStaysStock() throws Exception {
        SqlPlans plans = plans();
        String sql = golden("encode_join");
        String sinkFormat = "'topic' = '${topic:out}', 'properties.bootstrap.servers' = '${bootstrap}',\n"
                + "  'format' = 'json'";
        assertTrue(sql.contains(sinkFormat), sql);
        assertSinkStaysStock(plans, plans.plan(sql.replace(sinkFormat, sinkFormat.replace("'json'", "'avro'"))));
    }

    @Test
    void aWindowAggregatesRowsWithTheirTimestampsGoToAnEncodeStageWithTheCalc() throws Exception {
        AcceleratedExecNode encode = encodeStage(golden("encode_window_aggregate"));
        assertEquals("Accelerated[per_minute-encode]", encode.getDescription());
        assertFalse(input(encode) instanceof StreamExecCalc, "the Calc over window_start runs in the stage");
        assertTrue(input(encode).getOutputType().getChildren().stream()
                .anyMatch(t -> t.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE),
                input(encode).getOutputType().asSummaryString());
    }

    /** Nexmark q18's shape: an event-time deduplication into an upsert sink (its key NOT NULL), then {@code select}. */
    private static String lastRowPerKey(String select) {
        return "CREATE TABLE events (k STRING, v DOUBLE, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND)"
                + " WITH ('connector' = 'kafka', 'topic' = 'events', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'format' = 'json');\n"
                + "CREATE TABLE latest (k STRING, v DOUBLE NOT NULL, ts TIMESTAMP(3), PRIMARY KEY (k) NOT ENFORCED) WITH"
                + " ('connector' = 'upsert-kafka', 'topic' = 'latest', 'properties.bootstrap.servers' = 'localhost:9092',"
                + " 'key.format' = 'json', 'value.format' = 'json');\n"
                + "INSERT INTO latest SELECT " + select + " FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY ts"
                + " DESC) AS rn FROM events) WHERE rn = 1;";
    }

    @Test
    void notNullColumnsBesideARowtimeAreCheckedAndTheRowtimeWhereFlinksSinkFailsOnANullOne() throws Exception {
        AcceleratedExecNode afterDedup = encodeStage(lastRowPerKey("k, v, ts"));
        JsonNode rows = new ObjectMapper().readTree(afterDedup.spec().descriptorJson());
        assertEquals("[\"k\",\"v\"]", rows.path("not_null").path("columns").toString(), rows.toString());
        assertTrue(rows.path("rowtime").isMissingNode(), "the deduplication hands Flink's sink BinaryRowData, whose"
                + " NULL TIMESTAMP(3) reads as epoch 0: stock writes the row, so the stage does not check it");

        AcceleratedExecNode afterCalc = encodeStage(lastRowPerKey("k, v * 2, ts"));
        JsonNode projected = new ObjectMapper().readTree(afterCalc.spec().descriptorJson());
        assertEquals("\"ts\"", projected.path("rowtime").path("column").toString(), "a projecting Calc's row holds a"
                + " NULL rowtime as null, on which Flink's sink fails: " + projected);
        assertEquals("[\"k\",\"v\"]", projected.path("not_null").path("columns").toString());
    }

    /** A Top-2 per key selecting its row number, into an upsert sink keyed by (k, rn). */
    private static final String TOP_TWO_PER_KEY = "CREATE TABLE events (k STRING, v DOUBLE, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'events',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'json');\n"
            + "CREATE TABLE top2 (k STRING, v DOUBLE, ts TIMESTAMP(3), rn BIGINT, PRIMARY KEY (k, rn) NOT ENFORCED)"
            + " WITH ('connector' = 'upsert-kafka', 'topic' = 'top2', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'key.format' = 'json', 'value.format' = 'json');\n"
            + "INSERT INTO top2 SELECT k, v, ts, rn FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC)"
            + " AS rn FROM events) WHERE rn <= 2;";

    @Test
    void aTopNSelectingItsRowNumberHandsTheSinkANullRowtimeUnlessObjectsAreReused() throws Exception {
        JsonNode copied = new ObjectMapper().readTree(encodeStage(TOP_TWO_PER_KEY).spec().descriptorJson());
        assertEquals("\"ts\"", copied.path("rowtime").path("column").toString(), "the JoinedRowData of the row and"
                + " its number becomes a GenericRowData holding null in Flink's copy, on which Flink's sink fails: "
                + copied);

        SqlPlans reusing = plans();
        ((TableConfig) reusing.config()).set(PipelineOptions.OBJECT_REUSE, true);
        JsonNode reused = new ObjectMapper().readTree(encodeStage(reusing, TOP_TWO_PER_KEY).spec().descriptorJson());
        assertTrue(reused.path("rowtime").isMissingNode(), "under object reuse the JoinedRowData reaches the sink as"
                + " it is and reads the NULL rowtime from the input's BinaryRowData as epoch 0: " + reused);
    }

    @Test
    void withTheOptionOffEverySinkStaysStock() throws Exception {
        SqlPlans plans = new SqlPlans();
        ((TableConfig) plans.config()).set(AcceleratorOptions.ENCODE_STAGES, false);
        assertSinkStaysStock(plans, plans.plan(golden("encode_join")));
    }

    private static void assertSinkStaysStock(SqlPlans plans, ExecNodeGraph graph) {
        StreamExecSink original = (StreamExecSink) graph.getRootNodes().get(0);
        ExecNodeGraph rewritten = rewrite(plans, graph, new AccelerationReport());
        assertSame(original, rewritten.getRootNodes().get(0));
        assertFalse(input(original) instanceof AcceleratedExecNode);
    }
}
