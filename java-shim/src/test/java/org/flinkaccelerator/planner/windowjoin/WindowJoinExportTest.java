package org.flinkaccelerator.planner.windowjoin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.AsyncStateOfThisLine;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;

/**
 * What the export keeps stock, with its reason: a window join whose condition the expression
 * registry does not reproduce, any window join when stock runs it on asynchronous state, and a
 * SEMI join whose output row is not its left input's; and what it accelerates: Nexmark q8's shape
 * (two window aggregates joined on a key and the window) and a SEMI join of an {@code IN}.
 */
class WindowJoinExportTest {
    private static final String TABLES = "CREATE TABLE auctions (seller BIGINT, item STRING, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen');\n"
            + "CREATE TABLE persons (id BIGINT, name STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)"
            + " WITH ('connector' = 'datagen')";
    private static final String Q8 = "SELECT p.id, p.name, p.window_start FROM"
            + " (SELECT id, name, window_start, window_end FROM TABLE(TUMBLE(TABLE persons, DESCRIPTOR(ts),"
            + " INTERVAL '10' SECOND)) GROUP BY id, name, window_start, window_end) p JOIN"
            + " (SELECT seller, window_start, window_end FROM TABLE(TUMBLE(TABLE auctions, DESCRIPTOR(ts),"
            + " INTERVAL '10' SECOND)) GROUP BY seller, window_start, window_end) a"
            + " ON p.id = a.seller AND p.window_start = a.window_start AND p.window_end = a.window_end";

    /** The auctions whose seller is a person of the same window: a SEMI window join. */
    private static final String SEMI = "SELECT a.seller, a.item, a.window_end FROM (SELECT seller, item,"
            + " window_start, window_end FROM TABLE(TUMBLE(TABLE auctions, DESCRIPTOR(ts), INTERVAL '10' SECOND))) a"
            + " WHERE a.seller IN (SELECT p.id FROM (SELECT id, window_start, window_end FROM TABLE(TUMBLE(TABLE"
            + " persons, DESCRIPTOR(ts), INTERVAL '10' SECOND))) p WHERE a.window_start = p.window_start"
            + " AND a.window_end = p.window_end)";

    @Test
    void nexmarkQ8IsAccelerated() {
        WindowJoinExport export = export(Q8);
        assertEquals(List.of(), export.fallback());
        assertTrue(export.toJson().contains("\"window_join\""), export.toJson());
    }

    @Test
    void aConditionTheRegistryDoesNotReproduceStaysStockWithTheRegistrysReason() {
        WindowJoinExport export = export("SELECT a.seller, p.name FROM (SELECT * FROM TABLE(TUMBLE(TABLE auctions,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND))) a JOIN (SELECT * FROM TABLE(TUMBLE(TABLE persons,"
                + " DESCRIPTOR(ts), INTERVAL '10' SECOND))) p ON a.seller = p.id AND a.window_start = p.window_start"
                + " AND a.window_end = p.window_end AND REGEXP(a.item, p.name)");
        assertEquals(1, export.fallback().size(), export.fallback().toString());
        assertTrue(export.fallback().get(0).toString().contains("REGEXP"), export.fallback().toString());
    }

    @Test
    void asynchronousStateStaysStock() {
        WindowJoinExport export = export(Q8, "table.exec.async-state.enabled", "true");
        if (!AsyncStateOfThisLine.EXISTS) {
            assertEquals(List.of(), export.fallback(), "1.20 ignores the option");
            return;
        }
        assertTrue(export.fallback().toString().contains("table.exec.async-state.enabled' is true"),
                export.fallback().toString());
    }

    @Test
    void aSemiJoinWhoseOutputIsTheLeftRowIsAccelerated() {
        WindowJoinExport export = export(SEMI);
        assertEquals(List.of(), export.fallback());
        assertTrue(export.toJson().contains("\"SEMI\""), export.toJson());
    }

    /**
     * Flink's planner gives a SEMI join its left input's row type; a node whose output row differs
     * (here the SEMI join's node answering a row with one more field) stays stock, as the sidecar
     * would refuse its descriptor.
     */
    @Test
    void aSemiJoinWhoseOutputIsNotTheLeftRowStaysStock() {
        Planned planned = planned(SEMI);
        WindowJoinNode node = planned.node();
        List<RowType.RowField> fields = new ArrayList<>(node.leftType().getFields());
        fields.add(new RowType.RowField("id", new BigIntType()));
        RowType wider = new RowType(fields);
        WindowJoinNode changed = new WindowJoinNode(withOutputType(node.node(), wider), node.joinSpec(),
                node.leftWindowing(), node.rightWindowing());
        WindowJoinExport export = WindowJoinExport.of("persons-window-join", changed, planned.config());
        assertEquals(List.of(new FallbackReason("window join", "the SEMI join's output row " + wider.asSummaryString()
                + " is not its left input's row " + node.leftType().asSummaryString() + "; an accelerated SEMI window"
                + " join emits the left input's rows as they are")), export.fallback());
    }

    private record Planned(WindowJoinNode node, ReadableConfig config) {}

    private static WindowJoinExport export(String select, String... options) {
        Planned planned = planned(select, options);
        return WindowJoinExport.of("persons-window-join", planned.node(), planned.config());
    }

    private static Planned planned(String select, String... options) {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        for (String table : TABLES.split(";\n")) {
            plans.env().executeSql(table);
        }
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        List<FoundNode<WindowJoinNode>> found = WindowJoinNode.find(graph);
        assertEquals(1, found.size());
        return new Planned(found.get(0).fields(), plans.config());
    }

    /** {@code node} answering {@code outputType} as its output type, everything else its own. */
    private static ExecNode<?> withOutputType(ExecNode<?> node, RowType outputType) {
        return (ExecNode<?>) Proxy.newProxyInstance(ExecNode.class.getClassLoader(), new Class<?>[] {ExecNode.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getOutputType") && method.getParameterCount() == 0) {
                        return outputType;
                    }
                    try {
                        return method.invoke(node, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
