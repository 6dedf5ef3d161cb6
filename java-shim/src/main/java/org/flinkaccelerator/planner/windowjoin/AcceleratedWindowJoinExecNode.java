package org.flinkaccelerator.planner.windowjoin;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.windowjoin.AcceleratedWindowJoinOperator;
import org.flinkaccelerator.runtime.windowjoin.WindowJoinSpec;

/**
 * The ExecNode of an accelerated window join, running {@link AcceleratedWindowJoinOperator} on both
 * of the stock window join's input edges, each keyed by its join keys as stock's are, with an
 * OPERATOR weight for its held rows. Its uid ends in {@value #UID_NAME}, never stock's {@code window-join}.
 */
public final class AcceleratedWindowJoinExecNode extends SidecarStateExecNode<WindowJoinSpec> {
    static final String CONTEXT = "accelerated-window-join_1";
    static final String UID_NAME = "accelerated-window-join";
    /** The managed-memory weight declared for the sidecar's state (stock's window join keeps it in its backend). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedWindowJoinExecNode(ReadableConfig config, WindowJoinSpec spec, int[] leftKeys, int[] rightKeys,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "window join", config, spec, List.of(leftKeys, rightKeys),
                outputType);
    }

    @Override
    protected List<RowType> specInputTypes() {
        return List.of(spec().leftType(), spec().rightType());
    }

    @Override
    protected TwoInputStreamOperator<RowData, RowData, RowData> createOperator() {
        return new AcceleratedWindowJoinOperator(spec());
    }
}
