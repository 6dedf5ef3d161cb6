package org.flinkaccelerator.planner.windowagg;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.ExecNodes;

/**
 * Finds the plan's window aggregates a sidecar could hold: stock's single phase
 * ({@code StreamExecWindowAggregate}) and global phase ({@code StreamExecGlobalWindowAggregate}).
 * The local phase is not looked for: it holds no state across checkpoints and stays stock.
 */
public final class WindowAggFinder {
    private WindowAggFinder() {}

    /** One window aggregate: its fields, or, when Flink's fields cannot be read, why. */
    public record Found(ExecNode<?> node, WindowAggPhase phase, WindowAggNode fields, String unreadable) {
        public boolean readable() {
            return fields != null;
        }
    }

    /** Every window aggregate reachable from the roots, each once, sinks first. */
    public static List<Found> find(ExecNodeGraph graph) {
        List<Found> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            WindowAggPhase phase = WindowAggPhase.of(node);
            if (phase != null) {
                out.add(read(node, phase));
            }
        }
        return out;
    }

    private static Found read(ExecNode<?> node, WindowAggPhase phase) {
        try {
            return new Found(node, phase, WindowAggNode.read(node, phase), null);
        } catch (StockFields.Missing e) {
            return new Found(node, phase, null, e.getMessage());
        }
    }
}
