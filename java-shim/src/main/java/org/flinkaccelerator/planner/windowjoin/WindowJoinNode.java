package org.flinkaccelerator.planner.windowjoin;

import java.util.List;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowJoin;
import org.apache.flink.table.runtime.operators.join.FlinkJoinType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.join.JoinNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecWindowJoin}: the values its
 * {@code translateToPlanInternal} passes to the {@code WindowJoinOperator} it builds (the join spec
 * and each input's windowing), read from fields without getters ({@link StockFields}).
 */
public record WindowJoinNode(ExecNode<?> node, JoinSpec joinSpec, WindowingStrategy leftWindowing,
        WindowingStrategy rightWindowing) {


    public RowType leftType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType rightType() {
        return (RowType) node.getInputEdges().get(1).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Whether stock emits left rows only, by whether they have a match. */
    public boolean semiAnti() {
        return joinSpec.getJoinType() == FlinkJoinType.SEMI || joinSpec.getJoinType() == FlinkJoinType.ANTI;
    }

    /** The left input's fields then the right input's, as the non-equi condition reads them. */
    public RowType joinedType() {
        return semiAnti() ? JoinNode.joinedType(leftType(), rightType()) : outputType();
    }

    /** Every {@code StreamExecWindowJoin} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<WindowJoinNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecWindowJoin.class, WindowJoinNode::read);
    }

    static WindowJoinNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecWindowJoin.class;
        return new WindowJoinNode(node, (JoinSpec) StockFields.read(node, owner, "joinSpec"),
                (WindowingStrategy) StockFields.read(node, owner, "leftWindowing"),
                (WindowingStrategy) StockFields.read(node, owner, "rightWindowing"));
    }
}
