package org.flinkaccelerator.runtime.join;

/** Flink 1.20's RocksDB keyed state backend, in its package before 2.0 moved it. */
final class RocksDbBackendOfThisLine {
    static final String KEYED_BACKEND_CLASS = "org.apache.flink.contrib.streaming.state.RocksDBKeyedStateBackend";

    private RocksDbBackendOfThisLine() {}
}
