package org.flinkaccelerator.planner.dedup;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.stage.FallbackReason;
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

    /** One deduplication of a plan: its fields, or why it stays stock before any export (then fields is null). */
    public record Found(ExecNode<?> node, DedupNode fields, FallbackReason stock) {
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

    /** Every {@code StreamExecDeduplicate} reachable from the roots, each once, sinks first. */
    public static List<Found> find(ExecNodeGraph graph) {
        List<Found> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (node.getClass() == StreamExecDeduplicate.class) {
                try {
                    out.add(new Found(node, read(node), null));
                } catch (StockFields.Missing e) {
                    out.add(new Found(node, null, new FallbackReason("exec node", e.getMessage())));
                }
            }
        }
        return out;
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
