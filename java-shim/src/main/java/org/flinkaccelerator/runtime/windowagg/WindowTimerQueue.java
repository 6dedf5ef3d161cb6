package org.flinkaccelerator.runtime.windowagg;

import org.apache.flink.runtime.checkpoint.CheckpointType;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyedStateBackend;
import org.apache.flink.runtime.state.heap.HeapKeyedStateBackend;

/**
 * Where the accelerated window aggregate keeps its event-time timers (docs/architecture.md "Timer
 * order"): in the sidecar stage's own queue, which fires in the order the keyed backend's timer
 * service would ({@link #HEAP} for {@code HashMapStateBackend}, {@link #ROCKSDB} for
 * {@code EmbeddedRocksDBStateBackend} with RocksDB timers), or on Flink's timer service
 * ({@link #FLINK}) for any backend whose order the stage does not reproduce. Chosen once per run,
 * before the state is restored, with the reason the operator logs.
 */
public enum WindowTimerQueue {
    HEAP("heap"),
    ROCKSDB("rocksdb"),
    FLINK("flink");

    /** The operator union list state naming the queue a checkpoint's timers were written from. */
    public static final String STATE = "accelerator-window-agg-timers";

    /** The name the stage's {@code timers} call and the checkpoint use. */
    public final String id;

    WindowTimerQueue(String id) {
        this.id = id;
    }

    /** The queue and why it was chosen. */
    public record Choice(WindowTimerQueue queue, String reason) {}

    /**
     * The queue for {@code backend}, restoring a checkpoint whose timers were written from
     * {@code restored} (null: not restored; {@link #FLINK} for a checkpoint without the marker,
     * written before the stage kept timers).
     *
     * @throws WindowAggStateException when the restored timers cannot be put into the queue this
     *     backend needs in the order Flink's restore would give them
     */
    public static Choice choose(KeyedStateBackend<?> backend, WindowTimerQueue restored) {
        WindowTimerQueue own = ofBackend(backend);
        String name = backend.getClass().getSimpleName();
        if (restored == null || restored == own) {
            return new Choice(own, own == FLINK
                    ? "the keyed state backend " + name + " has a timer order the sidecar does not reproduce"
                    : "the keyed state backend " + name + (own == HEAP ? " keeps its timers on the heap"
                            : " keeps its timers in RocksDB") + (restored == null ? "" : ", as in the restored state"));
        }
        if (restored == FLINK && own != FLINK) {
            return new Choice(FLINK, "the restored state's timers are in Flink's timer service (written by a run that"
                    + " kept them there); they stay there until the job starts without state");
        }
        if (restored == HEAP && own == ROCKSDB) {
            // RocksDB's timer order does not depend on the order its timers were added in.
            return new Choice(ROCKSDB, "the keyed state backend " + name + " keeps its timers in RocksDB (the"
                    + " restored state's were the heap backend's, which RocksDB orders the same once restored)");
        }
        throw new WindowAggStateException("the accelerated window state keeps its timers in the sidecar's " + restored.id
                + " timer queue, which the keyed state backend " + name + " (" + own.id + " timers) cannot restore in"
                + " the order Flink would: restore it on the state backend that wrote it, or start without state",
                null);
    }

    /** The queue whose order {@code backend}'s timer service has, or {@link #FLINK}. */
    static WindowTimerQueue ofBackend(KeyedStateBackend<?> backend) {
        if (backend instanceof HeapKeyedStateBackend<?>) {
            return HEAP;
        }
        // Flink 2's org.apache.flink.state.rocksdb and 1.20's contrib package: the same class name. Heap
        // timers on RocksDB are refused before this (TimersOutsideRawState).
        if (backend.getClass().getSimpleName().equals("RocksDBKeyedStateBackend")
                && backend instanceof AbstractKeyedStateBackend<?> keyed
                && !keyed.requiresLegacySynchronousTimerSnapshots(CheckpointType.CHECKPOINT)) {
            return ROCKSDB;
        }
        return FLINK;
    }

    /** The queue named {@code id} in a checkpoint. */
    static WindowTimerQueue of(String id) {
        for (WindowTimerQueue queue : values()) {
            if (queue.id.equals(id)) {
                return queue;
            }
        }
        throw new WindowAggStateException("the accelerated window state's timers were written from a timer queue '"
                + id + "' this jar does not know (it knows heap, rocksdb and flink): restore it with the jar that"
                + " wrote it, or start without state", null);
    }
}
