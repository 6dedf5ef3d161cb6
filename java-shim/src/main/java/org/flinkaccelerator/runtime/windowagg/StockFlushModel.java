package org.flinkaccelerator.runtime.windowagg;

import java.time.ZoneId;
import java.util.TimeZone;
import org.apache.flink.table.runtime.operators.window.TimeWindow;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * When stock Flink's event-time TUMBLE or HOP window aggregate moves its buffer into state (and
 * only then registers the slices' timers), and which rows it drops as late: the progress state of
 * its slice processor and records buffer (docs/design/stateful-window-aggregate.md §1 rules 2-3),
 * decided with Flink's own {@link TimeWindowUtil} and the running release's {@link WindowTrigger}, so
 * the zone rules and trigger points are Flink's. Rows go to slices of {@code slide} ms (a TUMBLE
 * window is its one slice); a slice belongs to the windows ending at its end and the following
 * {@code size / slide - 1} slice ends.
 *
 * <p>The operator feeds it every row's time ({@link #accept}); at an advancing watermark
 * {@link #advance} says whether stock flushes its buffer there. A checkpoint barrier always
 * flushes ({@link #flushed}).
 */
public final class StockFlushModel {
    private final long size;
    private final long slide;
    private final long offset;
    private final ZoneId zone;
    private final boolean daylightSaving;

    /** The last watermark that advanced the operator (stock's processor {@code currentProgress}). */
    private long currentProgress = Long.MIN_VALUE;
    /** The progress at which the next window can fire; restarts at its minimum with every open. */
    private long nextTriggerProgress = Long.MIN_VALUE;
    /** The smallest slice end accepted since the last flush (stock's buffer {@code minSliceEnd}). */
    private long smallestPendingEnd = Long.MAX_VALUE;
    /** Rows accepted since the last flush (stock's buffer is empty when there are none). */
    private long pendingRows;

    public StockFlushModel(long size, long slide, long offset, ZoneId zone) {
        this.size = size;
        this.slide = slide;
        this.offset = offset;
        this.zone = zone;
        this.daylightSaving = TimeZone.getTimeZone(zone).useDaylightTime();
    }

    /** Sets the progress restored from a checkpoint (the union list state's minimum). */
    public void initialize(long progress) {
        currentProgress = progress;
    }

    public long currentProgress() {
        return currentProgress;
    }

    /** The end of the slice a row whose rowtime is {@code time} (epoch ms) belongs to (single phase). */
    public long sliceEnd(long time) {
        long shifted = TimeWindowUtil.toUtcTimestampMills(time, zone);
        return TimeWindow.getWindowStartWithOffset(shifted, offset, slide) + slide;
    }

    /**
     * Takes one row whose slice ends at {@code sliceEnd}: false when stock drops it as late (the
     * slice's last window fired at the current progress), else true, and the row waits in the buffer.
     */
    public boolean accept(long sliceEnd) {
        if (TimeWindowUtil.isWindowFired(sliceEnd - slide + size, currentProgress, zone)) {
            return false;
        }
        smallestPendingEnd = Math.min(smallestPendingEnd, sliceEnd);
        pendingRows++;
        return true;
    }

    /**
     * A watermark reached the operator: true when stock flushes its buffer at it (the watermark
     * advances the progress, reaches the next trigger and the buffer's smallest window is fired at it).
     */
    public boolean advance(long watermark) {
        if (watermark <= currentProgress) {
            return false;
        }
        currentProgress = watermark;
        if (currentProgress < nextTriggerProgress) {
            return false;
        }
        boolean flush = pendingRows > 0 && TimeWindowUtil.isWindowFired(smallestPendingEnd, currentProgress, zone);
        nextTriggerProgress = WindowTrigger.running().next(currentProgress, slide, offset, zone, daylightSaving);
        if (flush) {
            flushed();
        }
        return flush;
    }

    /** The buffer was flushed (at a watermark or a checkpoint barrier): it is empty. */
    public void flushed() {
        smallestPendingEnd = Long.MAX_VALUE;
        pendingRows = 0;
    }

    /** True when rows wait in the buffer. */
    public boolean pending() {
        return pendingRows > 0;
    }

    /**
     * For an accepted row of the slice ending at {@code sliceEnd}: the first window not fired at
     * the current progress when the slice itself fired, where stock registers a timer on the row's
     * arrival; otherwise {@code Long.MIN_VALUE} (the slice's own timer comes with the flush).
     */
    public long windowToRegisterOnArrival(long sliceEnd) {
        if (!TimeWindowUtil.isWindowFired(sliceEnd, currentProgress, zone)) {
            return Long.MIN_VALUE;
        }
        long window = sliceEnd;
        while (TimeWindowUtil.isWindowFired(window, currentProgress, zone)) {
            window += slide;
        }
        return window;
    }

    /** The window after the one ending at {@code windowEnd} (a HOP window's next timer). */
    public long nextWindow(long windowEnd) {
        return windowEnd + slide;
    }

    /** Whether windows share slices (HOP): a fired window that is not empty registers the next one's timer. */
    public boolean shared() {
        return slide != size;
    }

    /** The epoch millisecond at which the window ending at {@code windowEnd} fires (its event-time timer). */
    public long triggerTime(long windowEnd) {
        return TimeWindowUtil.toEpochMillsForTimer(windowEnd - 1, zone);
    }

    /** True when the window ending at {@code windowEnd} is fired at {@code watermark}. */
    public boolean fired(long windowEnd, long watermark) {
        return TimeWindowUtil.isWindowFired(windowEnd, watermark, zone);
    }
}
