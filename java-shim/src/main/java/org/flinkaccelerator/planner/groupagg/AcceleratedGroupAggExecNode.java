package org.flinkaccelerator.planner.groupagg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.groupagg.AcceleratedGroupAggOperator;
import org.flinkaccelerator.runtime.groupagg.GroupAggSpec;

/**
 * The ExecNode of an accelerated group aggregate, running {@link AcceleratedGroupAggOperator}
 * with the OPERATOR weight of stock's window aggregate for its state. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code group-aggregate}.
 */
public final class AcceleratedGroupAggExecNode extends SidecarStateExecNode<GroupAggSpec> implements BatchReadingNode {
    static final String CONTEXT = "accelerated-group-aggregate_1";
    static final String UID_NAME = "accelerated-group-aggregate";
    /** The managed-memory weight declared for the sidecar's state (stock's group aggregate keeps it on heap). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedGroupAggExecNode(ReadableConfig config, GroupAggSpec spec, int[] grouping, RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "group aggregate", config, spec, grouping, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedGroupAggOperator(spec());
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        GroupAggSpec s = spec();
        return new AcceleratedGroupAggExecNode(config, new GroupAggSpec(descriptorJson, s.inputType(), s.pythonExecutable(), s.batchSize(),
                s.batchBytes(), s.maxDelay(), s.sidecarTimeout(), s.arrowLimit()), keys().get(0),
                (RowType) getOutputType());
    }
}
