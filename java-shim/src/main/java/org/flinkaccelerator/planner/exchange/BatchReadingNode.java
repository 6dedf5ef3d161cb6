package org.flinkaccelerator.planner.exchange;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.state.ChangelogSpec;

/**
 * An accelerated keyed operator's node whose operator can read its input as batch records (a group
 * aggregate, a deduplication, a Top-N: each reads {@code update} rows through {@code BatchInput};
 * a group window aggregate or a window aggregate; a regular join, on each of its two inputs);
 * {@link BatchExchanges} puts a batch exchange before each input a rows stage feeds.
 */
public interface BatchReadingNode {
    /** A copy of this node, without input edges, whose operator runs the stage descriptor {@code descriptorJson}. */
    ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config);

    /**
     * The batch fields the rows stage answers for this operator (its stage's {@code update} fields),
     * from its descriptor's input {@code fields}: each the rows' column of its name, unless the
     * operator computes it from the row (a window's {@code $time}), which the field then says how
     * to derive ({@code accelerator/exchange/split.py}).
     */
    default JsonNode exchangeFields(JsonNode inputFields) {
        return inputFields;
    }

    /** The operator's descriptor {@code descriptor} (an object, changed in place) reading batch records on input {@code input}. */
    default void readBatches(ObjectNode descriptor, int input) {
        descriptor.put(ChangelogSpec.EXCHANGE, ChangelogSpec.BATCHED);
    }

    /**
     * Why input {@code input}, rows of {@code rows}, keeps the per-row exchange although its keys
     * have a batch-exchange layout, or null: what the operator needs besides the keys.
     */
    default String refusal(int input, RowType rows) {
        return null;
    }

    /**
     * Adds to the rows stage's {@code exchange} section (the keys and this operator's batch fields)
     * what else the rows stage needs to make input {@code input}'s batch rows; {@code rowsFields}
     * are the fields of the rows stage's rows (its descriptor's, without transport columns).
     */
    default void describeInput(ObjectNode exchange, int input, JsonNode rowsFields) {}
}
