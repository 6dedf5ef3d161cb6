package org.flinkaccelerator.runtime.windowagg;

import org.apache.flink.streaming.api.operators.InternalTimerService;

/** Starts a window operator's timer service as Flink 2's stock window aggregate does when it opens. */
final class TimerServiceStart {
    private TimerServiceStart() {}

    /** The timer service starts at the restored watermark, so no timer is registered for a slice fired before it. */
    static void at(InternalTimerService<?> timers, long watermark) {
        timers.initializeWatermark(watermark);
    }
}
