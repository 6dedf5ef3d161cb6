package org.flinkaccelerator.runtime.groupwindow;

import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.runtime.state.SidecarStateCalls;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * The calls of a group_window stage over the window aggregate's call protocol: {@code update}
 * hands over rows and answers the timer changes they make, {@code fire} answers every window a
 * watermark fires with its values, {@code snapshot} and {@code restore} move the state by key group.
 */
final class GroupWindowCalls implements SidecarStateCalls {
    static final String PROGRESS = "accelerator.progress";
    static final String WATERMARK = "accelerator.watermark";
    static final String DROPPED = "accelerator.dropped";
    /** The batch column of each row's time: its rowtime's epoch millisecond, or the processing time it arrived at. */
    static final String TIME = "$time";
    /** Answer columns: the key's bytes, the timer change (update), the window's start and end, the timer's time (update). */
    static final String KEY = "$key";
    static final String OP = "$op";
    static final String START = "$start";
    static final String END = "$end";
    static final String TIMER_TIME = "$timer_time";
    static final int REGISTER = 1;
    static final int DELETE = -1;

    private final WindowAggCalls calls;
    private final String stateBudget;

    GroupWindowCalls(SidecarStage stage, long stateBudget) {
        this.calls = new WindowAggCalls(stage, stateBudget);
        this.stateBudget = Long.toString(stateBudget);
    }

    /**
     * Hands the sidecar {@code batch}'s rows, which arrived at timer watermark {@code watermark};
     * answers the timer changes in order ({@link #KEY}, {@link #OP}, {@link #START}, {@link #END},
     * {@link #TIMER_TIME}: the window's end - 1, or 0 for stock's cleanup timer of a window ending
     * at or before the epoch)
     * and, in its metadata, the rows dropped as late ({@link #dropped}). The caller closes it.
     */
    VectorSchemaRoot update(VectorSchemaRoot batch, long watermark) {
        return calls.call(batch, "update", Map.of(PROGRESS, Long.toString(watermark),
                WindowAggCalls.STATE_BUDGET, stateBudget));
    }

    static long dropped(VectorSchemaRoot updateAnswer) {
        return WindowAggCalls.number(updateAnswer, DROPPED);
    }

    /** Every window whose timer {@code watermark} fires, with its values, removed from the state; the caller closes it. */
    VectorSchemaRoot fire(long watermark) {
        return calls.call(null, "fire", Map.of(WATERMARK, Long.toString(watermark)));
    }

    @Override
    public VectorSchemaRoot snapshot(int piece, long maxBytes) {
        return calls.snapshot(piece, maxBytes);
    }

    @Override
    public void restore(VectorSchemaRoot entries, Restore restore) {
        calls.restore(entries, restore);
    }

    @Override
    public long stateEntries() {
        return calls.stateEntries();
    }

    @Override
    public long stateBytes() {
        return calls.stateBytes();
    }
}
