package org.flinkaccelerator.planner.exchange;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;

/**
 * An accelerated keyed operator's node whose operator can read its input as batch records (a group
 * aggregate, a deduplication, a Top-N: each reads {@code update} rows through {@code BatchInput});
 * {@link BatchExchanges} puts a batch exchange before each one a rows stage feeds.
 */
public interface BatchReadingNode {
    /** A copy of this node, without input edges, whose operator runs the stage descriptor {@code descriptorJson}. */
    ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config);
}
