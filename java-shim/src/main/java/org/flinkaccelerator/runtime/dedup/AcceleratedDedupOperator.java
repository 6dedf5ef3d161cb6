package org.flinkaccelerator.runtime.dedup;

import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;
import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.state.ChangelogBatchOperator;

/**
 * A deduplication ({@code ROW_NUMBER() OVER (PARTITION BY k ORDER BY <time>) = 1}) whose kept rows
 * live in the Python sidecar's {@code deduplicate} stage, emitting what stock Flink's deduplicate
 * function (run by a {@code KeyedProcessOperator}) emits for each input row, in input order: the
 * row itself, or the kept row it replaces ({@code -U}) and the row ({@code +U}). Processing time
 * is the rows' arrival order: the operator reads no clock and registers no timers but the batch's
 * max-delay flush. Batching and emission are {@link ChangelogBatchOperator}'s; a checkpoint writes
 * the sidecar's state per key group into raw keyed state ({@link DedupStateFormat}).
 */
public final class AcceleratedDedupOperator extends ChangelogBatchOperator<DedupSpec> {
    private static final long serialVersionUID = 1L;
    private static final Kind KIND = new Kind(DedupSpec.KIND, "deduplication", "deduplication", "keys",
            DedupStateFormat.FORMAT);

    public AcceleratedDedupOperator(DedupSpec spec) {
        super(spec);
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    /**
     * Refuses any keyed state backend but the heap one where stock's processing-time last row
     * compares rows with the kept one: with another backend stock compares with a deserialized
     * copy and suppresses rows the accelerated operator emits (the planner keeps such a
     * deduplication stock when it sees the backend in the job's configuration).
     */
    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        super.initializeOwnState(context);
        if (spec.comparesKeptRows() && !(getKeyedStateBackend() instanceof HeapKeyedStateBackend)) {
            throw new IllegalStateException(spec.operatorName() + ": this deduplication keeps the last row by"
                    + " processing time and reproduces stock Flink's duplicate check on the hashmap state backend"
                    + " only, but the job runs " + getKeyedStateBackend().getClass().getSimpleName() + "; set"
                    + " state.backend.type: hashmap, or accelerator.deduplicate.enabled: false, where the job is"
                    + " planned");
        }
    }

    @Override
    protected String option() {
        return "accelerator.deduplicate.enabled";
    }

    /** Stock's deduplication emits the BinaryRowData of its keyed input and state. */
    @Override
    protected int forwardedColumns() {
        return spec.inputType().getFieldCount();
    }

    @Override
    protected RowData output(RowKind kind, RowData key, RowData values) {
        values.setRowKind(kind);
        return values;
    }
}
