package org.flinkaccelerator.planner.dedup;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.replace.MessageEncodingNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.dedup.AcceleratedDedupOperator;
import org.flinkaccelerator.runtime.dedup.DedupSpec;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * The ExecNode of an accelerated deduplication, running {@link AcceleratedDedupOperator} with an
 * OPERATOR weight for its state. Its uid ends in {@value #UID_NAME}, never stock's {@code deduplicate}.
 */
public final class AcceleratedDedupExecNode extends SidecarStateExecNode<DedupSpec>
        implements BatchReadingNode, MessageEncodingNode {
    static final String CONTEXT = "accelerated-deduplicate_1";
    static final String UID_NAME = "accelerated-deduplicate";
    /** The managed-memory weight declared for the sidecar's state (stock's deduplication keeps it on heap). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedDedupExecNode(ReadableConfig config, DedupSpec spec, int[] uniqueKeys, RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "deduplication", config, spec, uniqueKeys, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedDedupOperator(spec());
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        return new AcceleratedDedupExecNode(config, spec(descriptorJson), keys().get(0), (RowType) getOutputType());
    }

    /** Its output rows are the answer's values as they are: nothing to read back. */
    @Override
    public String encodingRefusal() {
        return null;
    }

    @Override
    public ExecNode<?> encoding(String encodeDescriptorJson, ReadableConfig config) {
        DedupSpec fused = spec(StateStageDescriptor.withSection(spec().descriptorJson(), spec().kind(),
                ChangelogSpec.FUSED_ENCODE, encodeDescriptorJson));
        return new AcceleratedDedupExecNode(config, fused, keys().get(0), fused.writtenRow());
    }

    /** This node's spec with another descriptor. */
    private DedupSpec spec(String descriptorJson) {
        DedupSpec s = spec();
        return new DedupSpec(descriptorJson, s.inputType(), s.pythonExecutable(), s.batchSize(), s.batchBytes(),
                s.maxDelay(), s.sidecarTimeout(), s.arrowLimit());
    }
}
