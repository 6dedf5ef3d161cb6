package org.flinkaccelerator.planner.join;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.exchange.ExchangeKeys;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.join.AcceleratedJoinOperator;
import org.flinkaccelerator.runtime.join.JoinSpec;
import org.flinkaccelerator.runtime.state.ChangelogSpec;

/**
 * The ExecNode of an accelerated regular join, running {@link AcceleratedJoinOperator} on both of
 * the stock join's input edges, each keyed by its join keys as stock's are, with an OPERATOR weight
 * for its state. Its uid ends in {@value #UID_NAME}, never stock's {@code join}.
 */
public final class AcceleratedJoinExecNode extends SidecarStateExecNode<JoinSpec> implements BatchReadingNode {
    static final String CONTEXT = "accelerated-join_1";
    static final String UID_NAME = "accelerated-join";
    /** The managed-memory weight declared for the sidecar's state (stock's join keeps it in its backend). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedJoinExecNode(ReadableConfig config, JoinSpec spec, int[] leftKeys, int[] rightKeys,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "join", config, spec, List.of(leftKeys, rightKeys), outputType);
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        JoinSpec s = spec();
        return new AcceleratedJoinExecNode(config, new JoinSpec(descriptorJson, s.leftType(), s.rightType(),
                s.filterNullKeys(), s.pythonExecutable(), s.batchSize(), s.batchBytes(), s.maxDelay(),
                s.sidecarTimeout(), s.arrowLimit()), keys().get(0), keys().get(1), (RowType) getOutputType());
    }

    /** The descriptor's {@code "exchange": {"left": "batched"}} (or right). */
    @Override
    public void readBatches(ObjectNode descriptor, int input) {
        JsonNode exchange = descriptor.path(ChangelogSpec.EXCHANGE);
        (exchange.isObject() ? (ObjectNode) exchange : descriptor.putObject(ChangelogSpec.EXCHANGE))
                .put(JoinSpec.INPUTS[input], ChangelogSpec.BATCHED);
    }

    /** The sidecar writes each row's binary form ({@code $order}) for fields of the key types only. */
    @Override
    public String refusal(int input, RowType rows) {
        return ExchangeKeys.rowRefusal(rows);
    }

    /**
     * The {@code join} part: the input ({@code side}), the left input's arity, the rows' fields
     * ({@code row}: {@code $order}'s) and the key positions whose NULL keeps a row from the join,
     * which the operator does not send ({@code null_filtered}; none for an input whose unmatched
     * rows stock emits).
     */
    @Override
    public void describeInput(ObjectNode exchange, int input, JsonNode rowsFields) {
        JoinSpec s = spec();
        ObjectNode join = exchange.putObject("join");
        join.put("side", input);
        join.put("left_arity", s.leftType().getFieldCount());
        join.set("row", rowsFields.deepCopy());
        ArrayNode filtered = join.putArray("null_filtered");
        if (!(input == 0 ? s.leftEmitsUnmatched() : s.rightEmitsUnmatched())) {
            for (int k = 0; k < s.filterNullKeys().length; k++) {
                if (s.filterNullKeys()[k]) {
                    filtered.add(k);
                }
            }
        }
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
