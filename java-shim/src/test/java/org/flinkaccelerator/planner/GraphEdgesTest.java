package org.flinkaccelerator.planner;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/** The planner gives Flink's graph back as it was after a rule rewired a stock node. */
class GraphEdgesTest {
    @Test
    void restoreUndoesARewiredConsumer() throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(Files.readString(Paths.get(System.getProperty("basedir", "."), "..",
                "substrait-plans", "rows_regexp.sql"), StandardCharsets.UTF_8));
        ExecNode<?> calc = graph.getRootNodes().get(0).getInputEdges().get(0).getSource();
        ExecEdge original = calc.getInputEdges().get(0);
        GraphEdges edges = GraphEdges.of(graph);
        new GraphRewriter(RewriteRules.all()).rewrite(graph, plans.config());
        assertInstanceOf(AcceleratedExecNode.class, calc.getInputEdges().get(0).getSource());
        edges.restore();
        assertSame(original, calc.getInputEdges().get(0));
    }
}
