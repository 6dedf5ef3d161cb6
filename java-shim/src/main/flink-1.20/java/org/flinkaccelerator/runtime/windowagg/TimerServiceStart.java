package org.flinkaccelerator.runtime.windowagg;

import org.apache.flink.streaming.api.operators.InternalTimerService;

/**
 * Starts a window operator's timer service as Flink 1.20's stock window aggregate does when it
 * opens: not at all (1.20's timer service has no start watermark).
 */
final class TimerServiceStart {
    private TimerServiceStart() {}

    static void at(InternalTimerService<?> timers, long watermark) {}
}
