package org.flinkaccelerator.planner.groupagg;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.exchange.ExchangeKeys;
import org.flinkaccelerator.planner.replace.MessageEncodingNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.groupagg.AcceleratedGroupAggOperator;
import org.flinkaccelerator.runtime.groupagg.GroupAggSpec;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * The ExecNode of an accelerated group aggregate, running {@link AcceleratedGroupAggOperator}
 * with the OPERATOR weight of stock's window aggregate for its state. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code group-aggregate}.
 */
public final class AcceleratedGroupAggExecNode extends SidecarStateExecNode<GroupAggSpec>
        implements BatchReadingNode, MessageEncodingNode {
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
        return new AcceleratedGroupAggExecNode(config, spec(descriptorJson), keys().get(0), (RowType) getOutputType());
    }

    /** The stage emits its output rows as the key fields joined with the values: it reads the keys back from their key rows. */
    @Override
    public String encodingRefusal() {
        RowType output = (RowType) getOutputType();
        for (int i = 0; i < spec().keyArity(); i++) {
            String refusal = ExchangeKeys.refusal(output.getFieldNames().get(i), output.getTypeAt(i));
            if (refusal != null) {
                return refusal;
            }
        }
        return null;
    }

    @Override
    public ExecNode<?> encoding(String encodeDescriptorJson, ReadableConfig config) {
        GroupAggSpec fused = spec(StateStageDescriptor.withSection(spec().descriptorJson(), spec().kind(),
                ChangelogSpec.FUSED_ENCODE, encodeDescriptorJson));
        return new AcceleratedGroupAggExecNode(config, fused, keys().get(0), fused.writtenRow());
    }

    /** This node's spec with another descriptor. */
    private GroupAggSpec spec(String descriptorJson) {
        GroupAggSpec s = spec();
        return new GroupAggSpec(descriptorJson, s.inputType(), s.pythonExecutable(), s.batchSize(), s.batchBytes(),
                s.maxDelay(), s.sidecarTimeout(), s.arrowLimit());
    }
}
