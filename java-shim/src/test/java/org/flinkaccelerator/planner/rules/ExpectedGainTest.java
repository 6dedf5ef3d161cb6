package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.GraphEdges;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * The cost check of partial acceleration on real plans: a stage that would leave the sidecar no
 * work worth its round trip keeps its nodes stock, saying why, and why the Calc after it could not
 * run in the sidecar; one that runs a Calc, or decodes a
 * format Flink decodes expensively into flat rows, is accelerated.
 */
class ExpectedGainTest {
    private static final String KAFKA = "'connector' = 'kafka', 'properties.bootstrap.servers' = 'localhost:9092', ";
    private static final String SOURCE = KAFKA + "'scan.startup.mode' = 'earliest-offset', 'topic' = 'in', ";

    /** The report's rendering after every rule, in planner order, over the single INSERT of {@code sql}. */
    private static String explain(String sql) {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(sql);
        GraphEdges edges = GraphEdges.of(graph);
        AccelerationReport report = new AccelerationReport();
        ExecNodeGraph current = graph;
        for (RewriteRule rule : new RewriteRule[] {new ExportKafkaSegments(), new AccelerateKafkaSources(),
                new AccelerateKafkaSinks()}) {
            current = rule.apply(current, plans.config(), report);
        }
        edges.restore();
        return report.render(graph);
    }

    private static final String UPSERT_OUT = "CREATE TABLE out_counts (s STRING, n BIGINT, PRIMARY KEY (s) NOT ENFORCED)"
            + " WITH ('connector' = 'upsert-kafka', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'topic' = 'out', 'key.format' = 'json', 'value.format' = 'json');\n";

    @Test
    void aRawSourceWithNoCalcForTheSidecarStaysStock() {
        String rendered = explain("CREATE TABLE src (s STRING) WITH (" + SOURCE + "'format' = 'raw');\n" + UPSERT_OUT
                + "INSERT INTO out_counts SELECT s, COUNT(*) FROM src GROUP BY s;\n");
        assertTrue(rendered.contains("no gain expected: the stage would run no Calc, and Flink's raw format decodes"),
                rendered);
        assertFalse(rendered.contains("Accelerated[src-rows]"), rendered);
    }

    @Test
    void aRawSourceWhoseCalcRunsInTheSidecarIsAccelerated() {
        String rendered = explain("CREATE TABLE src (s STRING) WITH (" + SOURCE + "'format' = 'raw');\n" + UPSERT_OUT
                + "INSERT INTO out_counts SELECT UPPER(s), COUNT(*) FROM src WHERE s <> 'x' GROUP BY UPPER(s);\n");
        assertTrue(rendered.contains("Accelerated[src-rows]"), rendered);
        assertFalse(rendered.contains("no gain expected"), rendered);
    }

    @Test
    void nestedRowsHandedToAStockCalcStayStockAndFlatOnesDoNot() {
        String sink = "CREATE TABLE out_json (id INT, x STRING) WITH (" + KAFKA + "'topic' = 'out', 'format' = 'json');\n";
        String stockCalc = "INSERT INTO out_json SELECT id, REGEXP_EXTRACT(%s, 'x=(.*)', 1) FROM src;\n";
        String nested = explain("CREATE TABLE src (id INT, r ROW<a INT, b STRING>) WITH (" + SOURCE
                + "'format' = 'json');\n" + sink + String.format(stockCalc, "r.b"));
        assertTrue(nested.contains("no gain expected: the stage would run no Calc and hand the stock operators after"
                + " it the nested ROW column r"), nested);
        // And why the Calc that would have given it work stays stock.
        assertTrue(nested.contains("the calc after source src stays stock: ") && nested.contains("REGEXP_EXTRACT"),
                nested);
        String flat = explain("CREATE TABLE src (id INT, b STRING) WITH (" + SOURCE + "'format' = 'json');\n" + sink
                + String.format(stockCalc, "b"));
        assertTrue(flat.contains("Accelerated[src-rows]"), flat);
        assertFalse(flat.contains("no gain expected"), flat);
    }
}
