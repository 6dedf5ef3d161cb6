package org.flinkaccelerator.planner;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;

/**
 * The input edges of every node of a graph, taken before the rewrite rules run, so the planner
 * can put them back once the rewritten graph is translated: a rule that feeds a stock node from
 * an accelerated operator changes that node's edges, and the graph Flink handed in must come back
 * as it was (EXPLAIN and compiled plans read it again).
 */
public final class GraphEdges {
    private final Map<ExecNode<?>, List<ExecEdge>> edges;

    private GraphEdges(Map<ExecNode<?>, List<ExecEdge>> edges) {
        this.edges = edges;
    }

    public static GraphEdges of(ExecNodeGraph graph) {
        Map<ExecNode<?>, List<ExecEdge>> edges = new IdentityHashMap<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            edges.put(node, List.copyOf(node.getInputEdges()));
        }
        return new GraphEdges(edges);
    }

    /** Gives every node whose input edges changed its edges from the time of {@link #of} back. */
    public void restore() {
        edges.forEach((node, original) -> {
            List<ExecEdge> now = node.getInputEdges();
            boolean same = now.size() == original.size();
            for (int i = 0; same && i < now.size(); i++) {
                same = now.get(i) == original.get(i);
            }
            if (!same) {
                node.setInputEdges(new ArrayList<>(original));
            }
        });
    }
}
