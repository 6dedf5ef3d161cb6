package org.flinkaccelerator.runtime.over;

import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.runtime.state.SidecarStateCalls;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * The calls of an over_agg stage over the window aggregate's call protocol: {@code update} hands
 * over rows to hold, {@code fire} answers every held row at or before a watermark with its
 * aggregates, {@code snapshot} and {@code restore} move the state by key group.
 */
final class OverAggCalls implements SidecarStateCalls {
    static final String WATERMARK = "accelerator.watermark";
    /** fire answer columns before the output row: the key's bytes and the row's timestamp. */
    static final String KEY = "$key";
    static final String TIME = "$time";

    private final WindowAggCalls calls;
    private final String stateBudget;

    OverAggCalls(SidecarStage stage, long stateBudget) {
        this.calls = new WindowAggCalls(stage, stateBudget);
        this.stateBudget = Long.toString(stateBudget);
    }

    /** Hands the sidecar {@code batch}'s rows (none late) to hold until a watermark passes them. */
    void update(VectorSchemaRoot batch) {
        calls.call(batch, "update", Map.of(WindowAggCalls.STATE_BUDGET, stateBudget)).close();
    }

    /** Every held row at or before {@code watermark} with its aggregates, removed from the state; the caller closes it. */
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

    /** Held rows and keys with accumulators after the last call (a gauge). */
    @Override
    public long stateEntries() {
        return calls.stateEntries();
    }

    @Override
    public long stateBytes() {
        return calls.stateBytes();
    }
}
