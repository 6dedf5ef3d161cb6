package org.flinkaccelerator.runtime.windowagg;

import org.apache.flink.runtime.state.StateBackend;
import org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend;

/** Flink 1.20's RocksDB keyed state backend for a test harness. */
public final class RocksDbBackend {
    private RocksDbBackend() {}

    /** With its timers in RocksDB ({@code rocksDbTimers}) or on the heap. */
    public static StateBackend of(boolean rocksDbTimers) {
        EmbeddedRocksDBStateBackend rocksDb = new EmbeddedRocksDBStateBackend();
        rocksDb.setPriorityQueueStateType(rocksDbTimers ? EmbeddedRocksDBStateBackend.PriorityQueueStateType.ROCKSDB
                : EmbeddedRocksDBStateBackend.PriorityQueueStateType.HEAP);
        // The harness gives the operator and the state backend each all of its managed memory.
        rocksDb.getMemoryConfiguration().setUseManagedMemory(false);
        return rocksDb;
    }
}
