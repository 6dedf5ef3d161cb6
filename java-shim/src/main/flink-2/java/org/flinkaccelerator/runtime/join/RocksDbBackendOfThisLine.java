package org.flinkaccelerator.runtime.join;

/** Flink 2.x's RocksDB keyed state backend, in the package 2.0 moved it to. */
final class RocksDbBackendOfThisLine {
    static final String KEYED_BACKEND_CLASS = "org.apache.flink.state.rocksdb.RocksDBKeyedStateBackend";

    private RocksDbBackendOfThisLine() {}
}
