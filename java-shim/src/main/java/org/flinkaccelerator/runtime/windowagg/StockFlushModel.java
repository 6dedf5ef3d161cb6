package org.flinkaccelerator.runtime.windowagg;

import java.time.ZoneId;
import java.util.TimeZone;
import org.apache.flink.table.runtime.operators.window.TimeWindow;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * When stock Flink's event-time TUMBLE, HOP or CUMULATE window aggregate moves its buffer into
 * state (and only then registers the slices' timers), and which rows it drops as late: the progress
 * state of its slice processor and records buffer (docs/design/stateful-window-aggregate.md §1
 * rules 2-3), decided with Flink's own {@link TimeWindowUtil} and the running release's
 * {@link WindowTrigger}, so the zone rules and trigger points are Flink's. Rows go to slices of
 * {@code slide} ms (a CUMULATE window's step; a TUMBLE window is its one slice); a slice belongs to
 * the windows ending at its end and the following slice ends up to its last window:
 * {@code size / slide - 1} of them (HOP), or those of its max-size window (CUMULATE).
 *
 * <p>The operator feeds it every row's time ({@link #accept}), or what the sidecar accepted of a
 * batch it did not look at ({@link #accepted}); at an advancing watermark
 * {@link #advance} says whether stock flushes its buffer there. A checkpoint barrier always
 * flushes ({@link #flushed}).
 */
public final class StockFlushModel {
    private final long size;
    private final long slide;
    private final long offset;
    private final ZoneId zone;
    private final boolean daylightSaving;
    private final boolean cumulative;

    /** The last watermark that advanced the operator (stock's processor {@code currentProgress}). */
    private long currentProgress = Long.MIN_VALUE;
    /** The progress at which the next window can fire; restarts at its minimum with every open. */
    private long nextTriggerProgress = Long.MIN_VALUE;
    /** The smallest slice end accepted since the last flush (stock's buffer {@code minSliceEnd}). */
    private long smallestPendingEnd = Long.MAX_VALUE;
    /** Rows accepted since the last flush (stock's buffer is empty when there are none). */
    private long pendingRows;

    /** {@code size} is a CUMULATE window's max size and {@code slide} its step. */
    public StockFlushModel(long size, long slide, long offset, ZoneId zone, boolean cumulative) {
        this.size = size;
        this.slide = slide;
        this.offset = offset;
        this.zone = zone;
        this.daylightSaving = TimeZone.getTimeZone(zone).useDaylightTime();
        this.cumulative = cumulative;
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
        if (TimeWindowUtil.isWindowFired(lastWindowEnd(sliceEnd), currentProgress, zone)) {
            return false;
        }
        // A CUMULATE row whose slice fired is buffered under its window's first slice (stock's
        // sliceStateMergeTarget), which then is the buffer's smallest slice end.
        boolean intoFirstSlice = cumulative && TimeWindowUtil.isWindowFired(sliceEnd, currentProgress, zone);
        smallestPendingEnd = Math.min(smallestPendingEnd, intoFirstSlice ? windowStart(sliceEnd) + slide : sliceEnd);
        pendingRows++;
        return true;
    }

    /**
     * Takes {@code rows} rows the sidecar accepted from one batch, the smallest slice end any went to
     * being {@code smallestEnd} (a CUMULATE row whose slice fired: its window's first slice), as
     * {@link #accept} of each would leave the buffer.
     */
    public void accepted(long rows, long smallestEnd) {
        if (rows > 0) {
            smallestPendingEnd = Math.min(smallestPendingEnd, smallestEnd);
            pendingRows += rows;
        }
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

    /**
     * The window whose timer a fired window ending at {@code windowEnd} registers (stock's
     * {@code nextTriggerWindow}), or {@code Long.MIN_VALUE} for none: none for TUMBLE, the next
     * slice end for HOP (the operator asks only after a window that was not empty), for
     * CUMULATE the next slice end up to the max-size window's end.
     */
    public long nextWindow(long windowEnd) {
        if (slide == size || (cumulative && windowEnd + slide > windowStart(windowEnd) + size)) {
            return Long.MIN_VALUE;
        }
        return windowEnd + slide;
    }

    /** The end of the last window the slice ending at {@code sliceEnd} belongs to ({@code getLastWindowEnd}). */
    private long lastWindowEnd(long sliceEnd) {
        return cumulative ? windowStart(sliceEnd) + size : sliceEnd - slide + size;
    }

    /** A CUMULATE window's start: the start of the max-size window its end falls in ({@code getWindowStart}). */
    private long windowStart(long windowEnd) {
        return TimeWindow.getWindowStartWithOffset(windowEnd - 1, offset, size);
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
