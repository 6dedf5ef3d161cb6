package org.flinkaccelerator.planner.rank;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.spec.PartitionSpec;
import org.apache.flink.table.planner.plan.nodes.exec.spec.SortSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecRank;
import org.apache.flink.table.planner.plan.utils.RankProcessStrategy;
import org.apache.flink.table.runtime.operators.rank.RankRange;
import org.apache.flink.table.runtime.operators.rank.RankType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecRank}: the values its
 * {@code translateToPlanInternal} passes to the Top-N function it builds, read from fields without
 * getters as the window aggregate's are ({@link StockFields}).
 */
public record RankNode(ExecNode<?> node, RankType rankType, PartitionSpec partitionSpec, SortSpec sortSpec,
        RankRange rankRange, RankProcessStrategy rankStrategy, boolean outputRankNumber, boolean generateUpdateBefore,
        List<StateMetadata> stateMetadata) {


    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Every {@code StreamExecRank} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<RankNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecRank.class, RankNode::read);
    }

    @SuppressWarnings("unchecked")
    static RankNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecRank.class;
        Object metadata = StockFields.read(node, owner, "stateMetadataList");
        return new RankNode(node, (RankType) StockFields.read(node, owner, "rankType"),
                (PartitionSpec) StockFields.read(node, owner, "partitionSpec"),
                (SortSpec) StockFields.read(node, owner, "sortSpec"),
                (RankRange) StockFields.read(node, owner, "rankRange"),
                (RankProcessStrategy) StockFields.read(node, owner, "rankStrategy"),
                (Boolean) StockFields.read(node, owner, "outputRankNumber"),
                (Boolean) StockFields.read(node, owner, "generateUpdateBefore"),
                metadata == null ? List.of() : (List<StateMetadata>) metadata);
    }
}
