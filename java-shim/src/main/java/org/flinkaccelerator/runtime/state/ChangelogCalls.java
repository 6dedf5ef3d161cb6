package org.flinkaccelerator.runtime.state;

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

    /**
     * update and restore: a local directory the stage may spill held state to (one of the
     * TaskManager's io.tmp.dirs) and the subtask index that names its files there.
     */
    public static final String SPILL_DIRECTORY = "accelerator.spill_directory";
    public static final String SUBTASK_INDEX = "accelerator.subtask_index";

    private final WindowAggCalls calls;
    /** What every call that grows the state carries: the budget and where to spill. */
    private final Map<String, String> growing;

    public ChangelogCalls(SidecarStage stage, long stateBudget, String spillDirectory, int subtaskIndex) {
        this.calls = new WindowAggCalls(stage, stateBudget);
        this.growing = Map.of(WindowAggCalls.STATE_BUDGET, Long.toString(stateBudget),
                SPILL_DIRECTORY, spillDirectory, SUBTASK_INDEX, Integer.toString(subtaskIndex));
    }

    /** Runs {@code batch} in row order; the answer (closed by the caller) holds every row to emit, in order. */
    public VectorSchemaRoot update(VectorSchemaRoot batch) {
        return calls.call(batch, "update", growing);
    }

    @Override
    public VectorSchemaRoot snapshot(int piece, long maxBytes) {
        return calls.call(null, "snapshot", SidecarStateCalls.snapshotArguments(piece, maxBytes));
    }

    @Override
    public void restore(VectorSchemaRoot entries, Restore restore) {
        Map<String, String> metadata = restore.arguments();
        metadata.putAll(growing);
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
