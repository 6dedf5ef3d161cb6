package org.flinkaccelerator.planner.groupwindow;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.groupwindow.AcceleratedGroupWindowOperator;
import org.flinkaccelerator.runtime.groupwindow.GroupWindowSpec;

/**
 * The ExecNode of an accelerated group window aggregate, running {@link AcceleratedGroupWindowOperator}
 * keyed by the grouping fields, with an OPERATOR weight for its state. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code group-window-aggregate}.
 */
public final class AcceleratedGroupWindowExecNode extends SidecarStateExecNode<GroupWindowSpec> {
    static final String CONTEXT = "accelerated-group-window-aggregate_1";
    static final String UID_NAME = "accelerated-group-window-aggregate";
    /** The managed-memory weight declared for the sidecar's state (stock's keeps it in keyed state). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedGroupWindowExecNode(ReadableConfig config, GroupWindowSpec spec, int[] grouping,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "group window aggregate", config, spec, grouping, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedGroupWindowOperator(spec());
    }
}
