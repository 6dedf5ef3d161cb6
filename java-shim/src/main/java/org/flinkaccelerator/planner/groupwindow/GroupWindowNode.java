package org.flinkaccelerator.planner.groupwindow;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.plan.logical.LogicalWindow;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupWindowAggregate;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecGroupWindowAggregate}: the values its
 * {@code translateToPlanInternal} builds the {@code WindowOperator} from. Flink keeps them in
 * fields without getters, read as the window aggregate's are ({@link StockFields}).
 */
public record GroupWindowNode(ExecNode<?> node, int[] grouping, AggregateCall[] aggCalls, LogicalWindow window,
        NamedWindowProperty[] windowProperties, boolean needRetraction) {

    /** One group window aggregate of a plan: its fields, or why it stays stock before any export (then fields is null). */
    public record Found(ExecNode<?> node, GroupWindowNode fields, FallbackReason stock) {
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

    /** Every {@code StreamExecGroupWindowAggregate} reachable from the roots, each once, sinks first. */
    public static List<Found> find(ExecNodeGraph graph) {
        List<Found> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (node.getClass() == StreamExecGroupWindowAggregate.class) {
                try {
                    out.add(new Found(node, read(node), null));
                } catch (StockFields.Missing e) {
                    out.add(new Found(node, null, new FallbackReason("exec node", e.getMessage())));
                }
            }
        }
        return out;
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
