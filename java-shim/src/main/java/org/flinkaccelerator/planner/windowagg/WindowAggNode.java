package org.flinkaccelerator.planner.windowagg;

import java.util.List;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;

/**
 * What the export needs of one stock window aggregate node: the arguments its
 * {@code translateToPlanInternal} passes to {@code AggregateUtil.deriveStreamWindowAggregateInfoList}
 * and to the operator builder. {@code aggInputType} is the row type the aggregate calls index: the
 * node's input (single phase) or {@code localAggInputRowType} (global phase, whose input holds the
 * local phase's accumulators instead).
 */
public record WindowAggNode(ExecNode<?> node, WindowAggPhase phase, int[] grouping, AggregateCall[] aggCalls,
        WindowingStrategy windowing, NamedWindowProperty[] windowProperties, boolean needRetraction,
        RowType aggInputType) {

    /** The rows the node reads: the input edge's type. */
    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /**
     * Every window aggregate reachable from the roots a sidecar could hold, each once, sinks first:
     * stock's single phase ({@code StreamExecWindowAggregate}) and global phase
     * ({@code StreamExecGlobalWindowAggregate}). The local phase is not looked for: it holds no
     * state across checkpoints and stays stock.
     */
    public static List<FoundNode<WindowAggNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, WindowAggPhase.nodeClasses(), WindowAggNode::read);
    }

    /** Reads the node's fields; throws {@link StockFields.Missing} naming a field that is not there. */
    static WindowAggNode read(ExecNode<?> node) {
        WindowAggPhase phase = WindowAggPhase.of(node);
        Class<?> owner = phase.nodeClass();
        int[] grouping = (int[]) StockFields.read(node, owner, "grouping");
        AggregateCall[] aggCalls = (AggregateCall[]) StockFields.read(node, owner, "aggCalls");
        WindowingStrategy windowing = (WindowingStrategy) StockFields.read(node, owner, "windowing");
        NamedWindowProperty[] properties = (NamedWindowProperty[]) StockFields.read(node, owner, "namedWindowProperties");
        boolean needRetraction = (Boolean) StockFields.read(node, owner, "needRetraction");
        RowType aggInput = phase == WindowAggPhase.GLOBAL
                ? (RowType) StockFields.read(node, owner, "localAggInputRowType")
                : (RowType) node.getInputEdges().get(0).getOutputType();
        return new WindowAggNode(node, phase, grouping, aggCalls, windowing, properties, needRetraction, aggInput);
    }
}
