package org.flinkaccelerator.planner.over;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.spec.OverSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecOverAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecOverAggregate}: the values its
 * {@code translateToPlanInternal} builds the OVER function from. Flink keeps them in fields
 * without getters, read as the window aggregate's are ({@link StockFields}).
 *
 * @param overSpec the partition, the window groups (sort, ROWS or RANGE, bounds, aggregate calls) and the constants
 * @param unboundedOverVersion {@code table.exec.unbounded-over.version} as the node was made with it: 2
 *     runs {@code RowTimeUnboundedPrecedingOverFunctionV2}, 1 the older functions
 */
public record OverAggNode(ExecNode<?> node, OverSpec overSpec, int unboundedOverVersion) {

    /** One OVER aggregate of a plan: its fields, or why it stays stock before any export (then fields is null). */
    public record Found(ExecNode<?> node, OverAggNode fields, FallbackReason stock) {
        public boolean readable() {
            return fields != null;
        }
    }

    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Every {@code StreamExecOverAggregate} reachable from the roots, each once, sinks first. */
    public static List<Found> find(ExecNodeGraph graph) {
        List<Found> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (node.getClass() == StreamExecOverAggregate.class) {
                try {
                    out.add(new Found(node, read(node), null));
                } catch (StockFields.Missing e) {
                    out.add(new Found(node, null, new FallbackReason("exec node", e.getMessage())));
                }
            }
        }
        return out;
    }

    static OverAggNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecOverAggregate.class;
        return new OverAggNode(node, (OverSpec) StockFields.read(node, owner, "overSpec"),
                (Integer) StockFields.read(node, owner, "unboundedOverVersion"));
    }
}
