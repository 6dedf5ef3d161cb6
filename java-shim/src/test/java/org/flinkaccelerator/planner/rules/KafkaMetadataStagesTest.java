package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.planner.plan.abilities.sink.WritingMetadataSpec;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/** Segments whose tables read or write Kafka metadata, or whose sink has NOT NULL columns. */
class KafkaMetadataStagesTest {
    private static final String KAFKA = "'connector' = 'kafka', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'format' = 'json'";
    private static final String SOURCE = "CREATE TABLE src (id INT, name STRING,"
            + " hs MAP<STRING, BYTES> METADATA FROM 'headers', ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp')"
            + " WITH (" + KAFKA + ", 'topic' = 'src', 'scan.startup.mode' = 'earliest-offset');\n";

    private static ExecNodeGraph rewrite(SqlPlans plans, String script) {
        return new ExportKafkaSegments().apply(plans.plan(script), plans.config());
    }

    private static JsonNode descriptor(ExecNodeGraph rewritten) throws Exception {
        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        AcceleratedExecNode accelerated = assertInstanceOf(AcceleratedExecNode.class,
                sink.getInputEdges().get(0).getSource());
        return new ObjectMapper().readTree(accelerated.spec().descriptorJson());
    }

    @Test
    void writtenHeadersAndTimestampGoThroughTheStageToTheRawSinksMetadataColumns() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph rewritten = rewrite(plans, SOURCE + "CREATE TABLE dst (id INT, name STRING,"
                + " t TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', h MAP<STRING, BYTES> METADATA FROM 'headers')"
                + " WITH (" + KAFKA + ", 'topic' = 'dst');\n"
                + "INSERT INTO dst SELECT id, name, ts, hs FROM src WHERE id > 0;");
        StreamExecSink sink = assertInstanceOf(StreamExecSink.class, rewritten.getRootNodes().get(0));
        assertEquals("raw", sink.getTableSinkSpec().getContextResolvedTable().getResolvedTable().getOptions().get("format"));
        assertInstanceOf(WritingMetadataSpec.class, sink.getTableSinkSpec().getSinkAbilities().get(0));
        assertEquals(List.of("value", "headers", "timestamp"), sink.getTableSinkSpec().getContextResolvedTable()
                .getResolvedSchema().getColumns().stream().map(Column::getName).toList());
        assertEquals("ROW<`value` BYTES, `headers` MAP<STRING, BYTES>, `timestamp` TIMESTAMP_LTZ(3)>",
                sink.getInputEdges().get(0).getOutputType().asSummaryString());
        JsonNode descriptor = descriptor(rewritten);
        assertEquals("[\"value\",\"headers\",\"timestamp\"]", names(descriptor.path("output").path("fields")));
        assertEquals("[\"value\",\"headers\",\"timestamp\"]", names(descriptor.path("input").path("fields")),
                "the headers the source reads travel to the sidecar too");
        assertTrue(plans.translate(rewritten).size() > 0, "Flink's own Kafka sink takes the raw twin with metadata");
    }

    @Test
    void notNullSinkColumnsAreCheckedByTheSidecarUnderErrorAndFilteredUnderDrop() throws Exception {
        String script = SOURCE + "CREATE TABLE dst (id INT NOT NULL, name STRING) WITH (" + KAFKA
                + ", 'topic' = 'dst');\nINSERT INTO dst SELECT id, name FROM src;";
        JsonNode errors = descriptor(rewrite(new SqlPlans(), script));
        assertEquals("[\"id\"]", errors.path("not_null").path("columns").toString());

        JsonNode drops = descriptor(rewrite(new SqlPlans().set("table.exec.sink.not-null-enforcer", "DROP"), script));
        assertTrue(drops.path("not_null").isMissingNode(), drops.toString());
        assertTrue(drops.path("plan").toString().contains("is_not_null"), "DROP filters in the plan");
    }

    @Test
    void notNullSinkColumnsBesideARowtimeAreCheckedBeforeItInTheSidecar() throws Exception {
        String script = "CREATE TABLE events (id INT, name STRING, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (" + KAFKA + ", 'topic' = 'src',"
                + " 'scan.startup.mode' = 'earliest-offset');\n"
                + "CREATE TABLE dst (id INT NOT NULL, name STRING, ts TIMESTAMP(3)) WITH (" + KAFKA
                + ", 'topic' = 'dst');\nINSERT INTO dst SELECT id, name, ts FROM events;";
        JsonNode checked = descriptor(rewrite(new SqlPlans(), script));
        assertEquals("[\"id\"]", checked.path("not_null").path("columns").toString());
        assertEquals("\"ts\"", checked.path("rowtime").path("column").toString(),
                "Flink's timestamp inserter fails on a NULL rowtime after the enforcer");
        assertFalse(checked.path("plan").toString().contains("rowtime"), "the sidecar checks it, not the plan");

        JsonNode disabled = descriptor(rewrite(
                new SqlPlans().set("table.exec.sink.rowtime-inserter", "DISABLED"), script));
        assertTrue(disabled.path("rowtime").isMissingNode(), "no inserter, no check: " + disabled);
        assertEquals("[\"id\"]", disabled.path("not_null").path("columns").toString());
    }

    @Test
    void nestedConstraintsOtherThanIgnoredKeepTheSegmentStock() {
        SqlPlans plans = new SqlPlans().set("table.exec.sink.nested-constraint-enforcer", "ROWS");
        ExecNodeGraph graph = plans.plan(SOURCE
                + "CREATE TABLE dst (id INT, r ROW<a INT NOT NULL>) WITH (" + KAFKA + ", 'topic' = 'dst');\n"
                + "INSERT INTO dst SELECT id, ROW(id) FROM src;");
        assertSame(graph, new ExportKafkaSegments().apply(graph, plans.config()));
    }

    @Test
    void aWrittenMetadataKeyNamedLikeAColumnKeepsTheSegmentStock() {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(SOURCE + "CREATE TABLE dst (`timestamp` BIGINT,"
                + " t TIMESTAMP_LTZ(3) METADATA FROM 'timestamp') WITH (" + KAFKA + ", 'topic' = 'dst');\n"
                + "INSERT INTO dst SELECT CAST(id AS BIGINT), ts FROM src;");
        ExecNodeGraph rewritten = new ExportKafkaSegments().apply(graph, plans.config());
        assertFalse(rewritten.getRootNodes().get(0).getInputEdges().get(0).getSource() instanceof AcceleratedExecNode);
    }

    private static String names(JsonNode fields) {
        StringBuilder out = new StringBuilder("[");
        for (JsonNode f : fields) {
            out.append(out.length() > 1 ? "," : "").append('"').append(f.path("name").asText()).append('"');
        }
        return out.append(']').toString();
    }
}
