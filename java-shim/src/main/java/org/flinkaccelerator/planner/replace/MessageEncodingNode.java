package org.flinkaccelerator.planner.replace;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;

/**
 * The node of an accelerated keyed operator whose sidecar stage can also encode the Kafka messages
 * of the sink its rows go to, in the same call ({@code accelerator.encode-stages.fused.enabled}):
 * the encode stage that would read its rows is folded into it, and it feeds the sink's raw twin.
 */
public interface MessageEncodingNode {
    /** Why this node's stage cannot encode its rows' messages itself, or null when it can. */
    String encodingRefusal();

    /**
     * A copy of this node, without input edges, whose stage also runs the encode stage of
     * descriptor {@code encodeDescriptorJson} on its rows and which emits the messages' rows (value
     * bytes, key bytes, written metadata) instead of its own.
     */
    ExecNode<?> encoding(String encodeDescriptorJson, ReadableConfig config);
}
