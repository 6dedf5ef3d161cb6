package org.flinkaccelerator.runtime.windowagg;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.flinkaccelerator.runtime.state.SidecarStateCalls;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * The six calls of a window_agg stage (docs/design/stateful-window-aggregate.md §3.1) over the
 * unchanged transport: each is one {@link SidecarStage#process} whose request schema's metadata
 * names the call ({@code accelerator.call}) and carries its arguments as decimal strings; the
 * answer's schema metadata carries what the answer says besides its rows.
 */
public final class WindowAggCalls implements SidecarStateCalls {
    public static final String CALL = "accelerator.call";
    static final String PROGRESS = "accelerator.progress";
    static final String TIMER_WATERMARK = "accelerator.timer_watermark";
    static final String WATERMARK = "accelerator.watermark";
    static final String TIMERS = "accelerator.timers";
    public static final String KEY_GROUP_START = "accelerator.key_group_start";
    public static final String KEY_GROUP_END = "accelerator.key_group_end";
    public static final String STATE_FORMAT = "accelerator.state_format";
    public static final String STATE_FINGERPRINT = "accelerator.state_fingerprint";
    public static final String STATE_BUDGET = "accelerator.state_budget";
    static final String DROPPED = "accelerator.dropped";
    static final String ACCEPTED = "accelerator.accepted";
    static final String SMALLEST_END = "accelerator.smallest_end";
    static final String EMPTY = "accelerator.empty";
    public static final String STATE_ENTRIES = "accelerator.state_entries";
    public static final String STATE_BYTES = "accelerator.state_bytes";

    /** Answer columns: the key's bytes and the window end. */
    public static final String KEY = "$key";
    public static final String WINDOW_END = "$window_end";

    private final SidecarStage stage;
    private final String stateBudget;
    private long stateEntries;
    private long stateBytes;

    /** @param stateBudget bytes the state may take; {@code update} and {@code restore} fail past them */
    public WindowAggCalls(SidecarStage stage, long stateBudget) {
        this.stage = stage;
        this.stateBudget = Long.toString(stateBudget);
    }

    /** Accumulates {@code batch} (rows of the descriptor's input) at {@code progress}; returns the rows dropped as late. */
    public long update(VectorSchemaRoot batch, long progress) {
        try (VectorSchemaRoot answer = updateAnswer(batch, progress)) {
            return number(answer, DROPPED);
        }
    }

    /**
     * {@link #update}'s whole answer, which the caller closes: in its metadata the rows dropped as
     * late ({@link #DROPPED}), the rows accepted ({@link #ACCEPTED}) and the smallest slice end they
     * went to ({@link #SMALLEST_END}, Long.MAX_VALUE for none); while the operator keeps Flink's
     * timers, its rows are the timers stock registers as those rows arrive, in row order
     * ({@link #KEY}, {@link #WINDOW_END}).
     */
    public VectorSchemaRoot updateAnswer(VectorSchemaRoot batch, long progress) {
        return call(batch, "update", Map.of(PROGRESS, Long.toString(progress), STATE_BUDGET, stateBudget));
    }

    /** The (key, window) pairs new since the last flush, in first-occurrence order ({@link #KEY}, {@link #WINDOW_END}); the caller closes it. */
    public VectorSchemaRoot flush(long timerWatermark) {
        return call(null, "flush", Map.of(TIMER_WATERMARK, Long.toString(timerWatermark)));
    }

    /**
     * Names the timer queue the stage keeps ({@link WindowTimerQueue#id}; {@code flink}: none, the
     * operator keeps Flink's timers) for key groups {@code first}..{@code last}; before any other call.
     */
    public void timers(String queue, int first, int last) {
        call(null, "timers", Map.of(TIMERS, queue, KEY_GROUP_START, Integer.toString(first), KEY_GROUP_END,
                Integer.toString(last))).close();
    }

    /** Every window fired at {@code watermark}, removed from the sidecar's state, with its values; the caller closes it. */
    public VectorSchemaRoot fire(long watermark) {
        return call(null, "fire", Map.of(WATERMARK, Long.toString(watermark)));
    }

    @Override
    public VectorSchemaRoot snapshot(int piece, long maxBytes) {
        return call(null, "snapshot", SidecarStateCalls.snapshotArguments(piece, maxBytes));
    }

    @Override
    public void restore(VectorSchemaRoot entries, Restore restore) {
        Map<String, String> metadata = restore.arguments();
        metadata.put(STATE_BUDGET, stateBudget);
        call(entries, "restore", metadata).close();
    }

    /** Entries in the sidecar's state after the last call (a gauge). */
    @Override
    public long stateEntries() {
        return stateEntries;
    }

    /** Approximate bytes of the sidecar's state after the last call (a gauge). */
    @Override
    public long stateBytes() {
        return stateBytes;
    }

    /**
     * One call of any stage speaking this protocol (the group aggregate's too): {@code batch}
     * (null for none) under a schema whose metadata names {@code call} with its arguments; reads
     * the state gauges of the answer, which the caller closes.
     */
    public VectorSchemaRoot call(VectorSchemaRoot batch, String call, Map<String, String> arguments) {
        Map<String, String> metadata = new HashMap<>(arguments);
        metadata.put(CALL, call);
        List<FieldVector> vectors = batch == null ? List.of() : batch.getFieldVectors();
        Schema schema = new Schema(batch == null ? List.of() : batch.getSchema().getFields(), metadata);
        // A view of the batch's vectors under the schema with the call: not closed, the batch owns them.
        VectorSchemaRoot request = new VectorSchemaRoot(schema, vectors, batch == null ? 0 : batch.getRowCount());
        VectorSchemaRoot answer = stage.process(request);
        try {
            stateEntries = number(answer, STATE_ENTRIES);
            stateBytes = number(answer, STATE_BYTES);
        } catch (RuntimeException e) {
            answer.close();
            throw e;
        }
        return answer;
    }

    /** A fire answer's count of windows removed without a row (their COUNT(*) is 0). */
    public static long emptyWindows(VectorSchemaRoot fireAnswer) {
        return number(fireAnswer, EMPTY);
    }

    /** A number the answer's schema metadata carries under {@code key}. */
    public static long number(VectorSchemaRoot answer, String key) {
        Map<String, String> metadata = answer.getSchema().getCustomMetadata();
        String value = metadata == null ? null : metadata.get(key);
        if (value == null) {
            throw new SidecarException("the stage's answer has no '" + key + "' in its schema metadata "
                    + metadata + ": the sidecar runs another version of its protocol");
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new SidecarException("the stage answered '" + key + "' = '" + value + "', not a long", e);
        }
    }
}
