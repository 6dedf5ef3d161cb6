package org.flinkaccelerator.runtime.watermarks;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * How a rows stage generates the watermarks of the Kafka source it replaces, fixed at planning
 * time from the source's pushed-down {@code WATERMARK} (Flink's {@code WatermarkPushDownSpec}):
 * the sidecar computes the watermark expression of each message, this says when to emit it.
 *
 * @param onEvent {@code scan.watermark.emit.strategy} = {@code on-event}: a watermark after every
 *     record; else periodically, every {@code pipeline.auto-watermark-interval}
 * @param idleTimeout after how long without records a split counts as idle
 *     ({@code scan.watermark.idle-timeout}, else {@code table.exec.source.idle-timeout}); zero: never
 */
public record WatermarkSpec(boolean onEvent, Duration idleTimeout) implements Serializable {
    private static final long serialVersionUID = 1L;

    public WatermarkSpec {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("an idle timeout cannot be negative, got " + idleTimeout);
        }
    }
}
