package org.flinkaccelerator.runtime.state;

import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.table.types.logical.RowType;

/** What a {@link SidecarStateOperator} reads from its operator's spec to run the sidecar and keep its state. */
public interface SidecarStateSpec extends Serializable {
    /** The operator's name in logs and errors. */
    String operatorName();

    /** The descriptor's state fingerprint (64 hex digits), written with every frame and marker. */
    String fingerprint();

    /** The stage descriptor the sidecar opens. */
    String descriptorJson();

    /** The operator's input row, as the planner's node feeds it. */
    RowType inputType();

    /** The rows of one {@code update} call as the operator writes them. */
    RowType batchType();

    String pythonExecutable();

    /** Input bytes that make a batch full; a restore hands the sidecar at most this much per call. */
    long batchBytes();

    Duration sidecarTimeout();

    long arrowLimit();

    /**
     * Whether the operator emits its sink's Kafka messages instead of its own rows (an encode stage
     * fused into it, {@link ChangelogSpec#FUSED_ENCODE}): one new row per message, which the edge to
     * the sink's raw twin hands over uncopied.
     */
    default boolean encodesMessages() {
        return false;
    }
}
