package org.flinkaccelerator.planner.dedup;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecDeduplicate}: the values its
 * {@code translateToPlanInternal} passes to the deduplicate function it builds. Flink keeps them in
 * fields without getters, read as the window aggregate's are ({@link StockFields}).
 *
 * @param outputInsertOnly the node's {@code outputInsertOnly} (keep-first-row without mini-batch, for plans
 *     made by Flink 2.x): with event time, stock then runs {@code RowTimeDeduplicateKeepFirstRowFunction}
 */
public record DedupNode(ExecNode<?> node, int[] uniqueKeys, boolean isRowtime, boolean keepLastRow,
        boolean generateUpdateBefore, boolean outputInsertOnly, List<StateMetadata> stateMetadata) {


    public RowType inputType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Every {@code StreamExecDeduplicate} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<DedupNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecDeduplicate.class, DedupNode::read);
    }

    @SuppressWarnings("unchecked")
    static DedupNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecDeduplicate.class;
        Object metadata = StockFields.read(node, owner, "stateMetadataList");
        return new DedupNode(node, (int[]) StockFields.read(node, owner, "uniqueKeys"),
                (Boolean) StockFields.read(node, owner, "isRowtime"),
                (Boolean) StockFields.read(node, owner, "keepLastRow"),
                (Boolean) StockFields.read(node, owner, "generateUpdateBefore"),
                InsertOnlyFirstRow.of(node),
                metadata == null ? List.of() : (List<StateMetadata>) metadata);
    }
}
