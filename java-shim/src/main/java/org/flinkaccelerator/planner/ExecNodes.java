package org.flinkaccelerator.planner;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;

/** The one walk over a plan that the rules and finders share. */
public final class ExecNodes {
    private ExecNodes() {}

    /**
     * Every node reachable from the graph's roots, each once, sinks first (breadth first), taken
     * before the caller changes any edge.
     */
    public static List<ExecNode<?>> reachable(ExecNodeGraph graph) {
        Set<ExecNode<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<ExecNode<?>> out = new ArrayList<>();
        List<ExecNode<?>> pending = new ArrayList<>(graph.getRootNodes());
        for (int next = 0; next < pending.size(); next++) {
            ExecNode<?> node = pending.get(next);
            if (seen.add(node)) {
                out.add(node);
                for (ExecEdge edge : node.getInputEdges()) {
                    pending.add(edge.getSource());
                }
            }
        }
        return out;
    }
}
