package org.flinkaccelerator.planner.join;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.join.AcceleratedJoinOperator;
import org.flinkaccelerator.runtime.join.JoinSpec;

/**
 * The ExecNode of an accelerated regular join, running {@link AcceleratedJoinOperator} on both of
 * the stock join's input edges, each keyed by its join keys as stock's are, with an OPERATOR weight
 * for its state. Its uid ends in {@value #UID_NAME}, never stock's {@code join}.
 */
public final class AcceleratedJoinExecNode extends SidecarStateExecNode<JoinSpec> {
    static final String CONTEXT = "accelerated-join_1";
    static final String UID_NAME = "accelerated-join";
    /** The managed-memory weight declared for the sidecar's state (stock's join keeps it in its backend). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedJoinExecNode(ReadableConfig config, JoinSpec spec, int[] leftKeys, int[] rightKeys,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "join", config, spec, List.of(leftKeys, rightKeys), outputType);
    }

    @Override
    protected List<RowType> specInputTypes() {
        return List.of(spec().leftType(), spec().rightType());
    }

    @Override
    protected TwoInputStreamOperator<RowData, RowData, RowData> createOperator() {
        return new AcceleratedJoinOperator(spec());
    }
}
