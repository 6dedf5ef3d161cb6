package org.flinkaccelerator.runtime.state;

import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * The three calls of a keyed stage answering changelog rows (group_agg, deduplicate), over the
 * window aggregate's call protocol (the call and its arguments in the request schema's metadata,
 * the state gauges in the answer's): {@code update} answers the changelog rows the batch's rows
 * produce, {@code snapshot} the state by key group, piece by piece, {@code restore} takes a key group's
 * state back.
 */
public final class ChangelogCalls implements SidecarStateCalls {
    /** update answer columns before the values: the batch row that produced it and its RowKind byte. */
    public static final String ROW = "$row";
    public static final String KIND = "$kind";

    private final WindowAggCalls calls;
    private final String stateBudget;

    public ChangelogCalls(SidecarStage stage, long stateBudget) {
        this.calls = new WindowAggCalls(stage, stateBudget);
        this.stateBudget = Long.toString(stateBudget);
    }

    /** Runs {@code batch} in row order; the answer (closed by the caller) holds every row to emit, in order. */
    public VectorSchemaRoot update(VectorSchemaRoot batch) {
        return calls.call(batch, "update", Map.of(WindowAggCalls.STATE_BUDGET, stateBudget));
    }

    @Override
    public VectorSchemaRoot snapshot(int piece, long maxBytes) {
        return calls.call(null, "snapshot", SidecarStateCalls.snapshotArguments(piece, maxBytes));
    }

    /** Restores snapshot rows written in {@code format} for {@code fingerprint} into a subtask of key groups {@code first}..{@code last}. */
    @Override
    public void restore(VectorSchemaRoot entries, int first, int last, int format, String fingerprint) {
        Map<String, String> metadata = new HashMap<>();
        metadata.put(WindowAggCalls.KEY_GROUP_START, Integer.toString(first));
        metadata.put(WindowAggCalls.KEY_GROUP_END, Integer.toString(last));
        metadata.put(WindowAggCalls.STATE_FORMAT, Integer.toString(format));
        metadata.put(WindowAggCalls.STATE_FINGERPRINT, fingerprint);
        metadata.put(WindowAggCalls.STATE_BUDGET, stateBudget);
        calls.call(entries, "restore", metadata).close();
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
