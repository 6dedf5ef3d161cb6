package org.flinkaccelerator.planner.groupagg;

import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecIncrementalGroupAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecGroupAggregate}: the arguments its
 * {@code translateToPlanInternal} passes to {@code AggregateUtil.transformToStreamAggregateInfoList}
 * and to {@code GroupAggFunction}. Flink keeps them in fields without getters, read as the window
 * aggregate's are ({@link StockFields}).
 */
public record GroupAggNode(ExecNode<?> node, int[] grouping, AggregateCall[] aggCalls,
        boolean[] aggCallNeedRetractions, boolean generateUpdateBefore, boolean needRetraction) {

    /** The global phases of two-phase group aggregates: stock, each with its line in the report. */
    private static final Set<Class<?>> GLOBAL_PHASES = Set.of(StreamExecGlobalGroupAggregate.class,
            StreamExecIncrementalGroupAggregate.class);

    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /**
     * Every {@code StreamExecGroupAggregate} reachable from the roots, each once, sinks first, and
     * the global phase of every two-phase one (which stays stock).
     */
    public static List<FoundNode<GroupAggNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, Set.of(StreamExecGroupAggregate.class), GroupAggNode::read,
                node -> GLOBAL_PHASES.contains(node.getClass()) ? new FallbackReason(GroupAggExport.AGGREGATES,
                        "two-phase (local/global) group aggregates, which 'table.optimizer.agg-phase-strategy' gives"
                        + " with mini-batch on, are not accelerated; only the one-phase group aggregate is") : null);
    }

    static GroupAggNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecGroupAggregate.class;
        return new GroupAggNode(node, (int[]) StockFields.read(node, owner, "grouping"),
                (AggregateCall[]) StockFields.read(node, owner, "aggCalls"),
                (boolean[]) StockFields.read(node, owner, "aggCallNeedRetractions"),
                (Boolean) StockFields.read(node, owner, "generateUpdateBefore"),
                (Boolean) StockFields.read(node, owner, "needRetraction"));
    }
}
