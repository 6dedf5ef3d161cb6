package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;

/** A graph whose sinks (roots) some rule replaced by the new sinks that end their replacements. */
final class ReplacedRoots {
    private ReplacedRoots() {}

    /** {@code graph} with each root that {@code replaced} maps swapped for its new node; {@code graph} when none is. */
    static ExecNodeGraph of(ExecNodeGraph graph, Map<ExecNode<?>, ExecNode<?>> replaced) {
        if (replaced.isEmpty()) {
            return graph;
        }
        List<ExecNode<?>> roots = new ArrayList<>();
        for (ExecNode<?> root : graph.getRootNodes()) {
            roots.add(replaced.getOrDefault(root, root));
        }
        return new ExecNodeGraph(graph.getFlinkVersion(), roots);
    }
}
