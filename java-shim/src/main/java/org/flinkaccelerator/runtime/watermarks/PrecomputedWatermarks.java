package org.flinkaccelerator.runtime.watermarks;

import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;

/**
 * One split's watermark generator, behaving as the one Flink's planner generates for a
 * {@code WATERMARK} pushed into a source ({@code GeneratedWatermarkGeneratorSupplier}'s default
 * generator), except that the watermark expression was evaluated by the sidecar: each event is that
 * value in epoch milliseconds, or null where the expression gave NULL, which is skipped. The
 * current watermark is the largest value so far ({@code Long.MIN_VALUE} before the first);
 * {@code on-event} emits it whenever it grows, {@code on-periodic} at every periodic emission,
 * even before the first value (which marks the split active, as in Flink).
 */
final class PrecomputedWatermarks implements WatermarkGenerator<Long> {
    private final boolean onEvent;
    private long current = Long.MIN_VALUE;

    PrecomputedWatermarks(boolean onEvent) {
        this.onEvent = onEvent;
    }

    @Override
    public void onEvent(Long watermark, long eventTimestamp, WatermarkOutput output) {
        if (watermark != null && watermark > current) {
            current = watermark;
            if (onEvent) {
                output.emitWatermark(new Watermark(current));
            }
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        if (!onEvent) {
            output.emitWatermark(new Watermark(current));
        }
    }
}
