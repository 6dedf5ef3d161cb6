package org.flinkaccelerator.planner.over;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.over.AcceleratedOverAggOperator;
import org.flinkaccelerator.runtime.over.OverAggSpec;

/**
 * The ExecNode of an accelerated OVER aggregate, running {@link AcceleratedOverAggOperator} keyed
 * by the partition fields, with an OPERATOR weight for its state. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code over-aggregate}.
 */
public final class AcceleratedOverAggExecNode extends SidecarStateExecNode<OverAggSpec> {
    static final String CONTEXT = "accelerated-over-aggregate_1";
    static final String UID_NAME = "accelerated-over-aggregate";
    /** The managed-memory weight declared for the sidecar's state (stock's OVER aggregate keeps it in keyed state). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedOverAggExecNode(ReadableConfig config, OverAggSpec spec, int[] partitionKeys,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "OVER aggregate", config, spec, partitionKeys, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedOverAggOperator(spec());
    }
}
