package org.flinkaccelerator.runtime.groupwindow;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.util.clock.Clock;

/**
 * The operator's processing-time service with one change: every callback first runs
 * {@code beforeCallback}. The operator's timer service schedules its processing-time timers through
 * it, so a processing-time operator that buffers rows hands them to the sidecar, and registers the
 * timers they make, before Flink fires any processing-time timer: the timers are then added and
 * polled in the order stock's operator adds and polls them, row by row, and so fire in its order.
 */
final class FlushingProcessingTimeService implements ProcessingTimeService {
    /** What runs before every callback; it may throw, which fails the callback as the callback's own failure would. */
    interface BeforeCallback {
        void run() throws Exception;
    }

    private final ProcessingTimeService delegate;
    private final BeforeCallback beforeCallback;

    FlushingProcessingTimeService(ProcessingTimeService delegate, BeforeCallback beforeCallback) {
        this.delegate = delegate;
        this.beforeCallback = beforeCallback;
    }

    private ProcessingTimeCallback flushingFirst(ProcessingTimeCallback callback) {
        return time -> {
            beforeCallback.run();
            callback.onProcessingTime(time);
        };
    }

    @Override
    public long getCurrentProcessingTime() {
        return delegate.getCurrentProcessingTime();
    }

    @Override
    public Clock getClock() {
        return delegate.getClock();
    }

    @Override
    public ScheduledFuture<?> registerTimer(long timestamp, ProcessingTimeCallback target) {
        return delegate.registerTimer(timestamp, flushingFirst(target));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(ProcessingTimeCallback callback, long initialDelay, long period) {
        return delegate.scheduleAtFixedRate(flushingFirst(callback), initialDelay, period);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(ProcessingTimeCallback callback, long initialDelay, long period) {
        return delegate.scheduleWithFixedDelay(flushingFirst(callback), initialDelay, period);
    }

    @Override
    public CompletableFuture<Void> quiesce() {
        return delegate.quiesce();
    }
}
