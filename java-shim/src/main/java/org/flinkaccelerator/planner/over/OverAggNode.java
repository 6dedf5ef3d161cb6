package org.flinkaccelerator.planner.over;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.spec.OverSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecOverAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecOverAggregate}: the values its
 * {@code translateToPlanInternal} builds the OVER function from. Flink keeps them in fields
 * without getters, read as the window aggregate's are ({@link StockFields}).
 *
 * @param overSpec the partition, the window groups (sort, ROWS or RANGE, bounds, aggregate calls) and the constants
 * @param unboundedOverVersion {@code table.exec.unbounded-over.version} as the node was made with it: 2
 *     runs {@code RowTimeUnboundedPrecedingOverFunctionV2}, 1 the older functions; 1 on Flink 1.20, whose
 *     node has no such field because the older functions are all it has
 */
public record OverAggNode(ExecNode<?> node, OverSpec overSpec, int unboundedOverVersion) {


    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Every {@code StreamExecOverAggregate} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<OverAggNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecOverAggregate.class, OverAggNode::read);
    }

    static OverAggNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecOverAggregate.class;
        int version = StockFields.has(owner, "unboundedOverVersion")
                ? (Integer) StockFields.read(node, owner, "unboundedOverVersion") : 1;
        return new OverAggNode(node, (OverSpec) StockFields.read(node, owner, "overSpec"), version);
    }
}
