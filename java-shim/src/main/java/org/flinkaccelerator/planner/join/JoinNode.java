package org.flinkaccelerator.planner.join;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecJoin;
import org.apache.flink.table.runtime.operators.join.FlinkJoinType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * What the export needs of one stock {@code StreamExecJoin}: the values its
 * {@code translateToPlanInternal} passes to the join operator it builds (the join spec, each
 * input's upsert keys, the state metadata), read from fields without getters ({@link StockFields}),
 * and whether each input is known to be insert-only ({@link InsertOnlyInputs}).
 *
 * @param leftInsertOnly null when the left input is insert-only, else why that is not known
 * @param rightInsertOnly null when the right input is insert-only, else why that is not known
 */
public record JoinNode(ExecNode<?> node, JoinSpec joinSpec, List<int[]> leftUpsertKeys,
        List<int[]> rightUpsertKeys, List<StateMetadata> stateMetadata, String leftInsertOnly,
        String rightInsertOnly) {


    public RowType leftType() {
        return (RowType) node.getInputEdges().get(0).getOutputType();
    }

    public RowType rightType() {
        return (RowType) node.getInputEdges().get(1).getOutputType();
    }

    public RowType outputType() {
        return (RowType) node.getOutputType();
    }

    /** Whether stock runs {@code StreamingSemiAntiJoinOperator}, whose output is the left input's row. */
    public boolean semiAnti() {
        return joinSpec.getJoinType() == FlinkJoinType.SEMI || joinSpec.getJoinType() == FlinkJoinType.ANTI;
    }

    /**
     * The left input's fields then the right input's, as the non-equi condition reads them: the
     * output row, but for a SEMI or ANTI join (whose output is the left row), where a right field
     * named as an earlier field gets the first free name with a number appended.
     */
    public RowType joinedType() {
        return semiAnti() ? joinedType(leftType(), rightType()) : outputType();
    }

    /**
     * The left input's fields then the right input's, where a right field named as an earlier
     * field gets the first free name with a number appended: what a SEMI or ANTI join's condition reads.
     */
    public static RowType joinedType(RowType left, RowType right) {
        List<RowType.RowField> fields = new ArrayList<>(left.getFields());
        Set<String> names = new HashSet<>(left.getFieldNames());
        for (RowType.RowField f : right.getFields()) {
            String name = f.getName();
            for (int i = 0; names.contains(name); i++) {
                name = f.getName() + i;
            }
            names.add(name);
            fields.add(new RowType.RowField(name, f.getType()));
        }
        return new RowType(false, fields);
    }

    /** Every {@code StreamExecJoin} reachable from the roots, each once, sinks first. */
    public static List<FoundNode<JoinNode>> find(ExecNodeGraph graph) {
        return FoundNode.find(graph, StreamExecJoin.class, JoinNode::read);
    }

    @SuppressWarnings("unchecked")
    static JoinNode read(ExecNode<?> node) {
        Class<?> owner = StreamExecJoin.class;
        Object metadata = StockFields.read(node, owner, "stateMetadataList");
        Object leftUpsertKeys = StockFields.read(node, owner, "leftUpsertKeys");
        Object rightUpsertKeys = StockFields.read(node, owner, "rightUpsertKeys");
        return new JoinNode(node, (JoinSpec) StockFields.read(node, owner, "joinSpec"),
                leftUpsertKeys == null ? List.of() : (List<int[]>) leftUpsertKeys,
                rightUpsertKeys == null ? List.of() : (List<int[]>) rightUpsertKeys,
                metadata == null ? List.of() : (List<StateMetadata>) metadata,
                InsertOnlyInputs.problem(node.getInputEdges().get(0).getSource()),
                InsertOnlyInputs.problem(node.getInputEdges().get(1).getSource()));
    }
}
