package org.flinkaccelerator.planner.groupwindow;

import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.plan.logical.LogicalWindow;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupWindowAggregate;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecGroupWindowAggregate}: the values its
 * {@code translateToPlanInternal} builds the {@code WindowOperator} from. Flink keeps them in
 * fields without getters, read as the window aggregate's are ({@link StockFields}).
 */
public record GroupWindowNode(ExecNode<?> node, int[] grouping, AggregateCall[] aggCalls, LogicalWindow window,
        NamedWindowProperty[] windowProperties, boolean needRetraction) {


    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Every {@code StreamExecGroupWindowAggregate} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<GroupWindowNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecGroupWindowAggregate.class, GroupWindowNode::read);
    }

    static GroupWindowNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecGroupWindowAggregate.class;
        return new GroupWindowNode(node, (int[]) StockFields.read(node, owner, "grouping"),
                (AggregateCall[]) StockFields.read(node, owner, "aggCalls"),
                (LogicalWindow) StockFields.read(node, owner, "window"),
                (NamedWindowProperty[]) StockFields.read(node, owner, "namedWindowProperties"),
                (Boolean) StockFields.read(node, owner, "needRetraction"));
    }
}
