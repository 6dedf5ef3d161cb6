package org.flinkaccelerator.runtime.windowjoin;

import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.runtime.state.SidecarStateCalls;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * The four calls of a window_join stage, over the window aggregate's call protocol (the call and
 * its arguments in the request schema's metadata, the state gauges in the answer's): {@code update}
 * holds a batch's rows, {@code fire} answers the windows a watermark fires, {@code snapshot} and
 * {@code restore} move the held rows by key group.
 */
final class WindowJoinCalls implements SidecarStateCalls {
    /** fire: the watermark the timer service advances to. */
    static final String WATERMARK = "accelerator.watermark";
    /** fire answer: how many (key, window) pairs fired, each one of Flink's timers. */
    static final String FIRED_WINDOWS = "accelerator.fired_windows";
    /** fire answer columns before the output row's. */
    static final String KEY = WindowAggCalls.KEY;
    static final String WINDOW_END = WindowAggCalls.WINDOW_END;

    private final WindowAggCalls calls;
    private final Map<String, String> budget;

    WindowJoinCalls(SidecarStage stage, long stateBudget) {
        this.calls = new WindowAggCalls(stage, stateBudget);
        this.budget = Map.of(WindowAggCalls.STATE_BUDGET, Long.toString(stateBudget));
    }

    /** Holds {@code batch}'s rows in the sidecar. */
    void update(VectorSchemaRoot batch) {
        calls.call(batch, "update", budget).close();
    }

    /** The output of every window whose timer fires at {@code watermark}, removed from the state; the caller closes it. */
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
