package org.flinkaccelerator.planner.exchange;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;

/**
 * An accelerated keyed operator's node whose operator can read its input as batch records (a group
 * aggregate, a deduplication, a Top-N: each reads {@code update} rows through {@code BatchInput};
 * a group window aggregate); {@link BatchExchanges} puts a batch exchange before each one a rows
 * stage feeds.
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
}
