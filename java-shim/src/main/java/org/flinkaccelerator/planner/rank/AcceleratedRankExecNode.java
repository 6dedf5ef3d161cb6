package org.flinkaccelerator.planner.rank;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.replace.MessageEncodingNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.rank.AcceleratedRankOperator;
import org.flinkaccelerator.runtime.rank.RankSpec;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * The ExecNode of an accelerated Top-N, running {@link AcceleratedRankOperator} with an OPERATOR
 * weight for its state. Its uid ends in {@value #UID_NAME}, never stock's {@code rank}.
 */
public final class AcceleratedRankExecNode extends SidecarStateExecNode<RankSpec>
        implements BatchReadingNode, MessageEncodingNode {
    static final String CONTEXT = "accelerated-top-n_1";
    static final String UID_NAME = "accelerated-top-n";
    /** The managed-memory weight declared for the sidecar's state (stock's Top-N keeps it on heap). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedRankExecNode(ReadableConfig config, RankSpec spec, int[] partitionKeys, RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "Top-N", config, spec, partitionKeys, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedRankOperator(spec());
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        return new AcceleratedRankExecNode(config, spec(descriptorJson), keys().get(0), (RowType) getOutputType());
    }

    /** Its output rows are the answer's values as they are: nothing to read back. */
    @Override
    public String encodingRefusal() {
        return null;
    }

    @Override
    public ExecNode<?> encoding(String encodeDescriptorJson, ReadableConfig config) {
        RankSpec fused = spec(StateStageDescriptor.withSection(spec().descriptorJson(), spec().kind(),
                ChangelogSpec.FUSED_ENCODE, encodeDescriptorJson));
        return new AcceleratedRankExecNode(config, fused, keys().get(0), fused.writtenRow());
    }

    /** This node's spec with another descriptor. */
    private RankSpec spec(String descriptorJson) {
        RankSpec s = spec();
        return new RankSpec(descriptorJson, s.inputType(), s.pythonExecutable(), s.batchSize(), s.batchBytes(),
                s.maxDelay(), s.sidecarTimeout(), s.arrowLimit());
    }
}
