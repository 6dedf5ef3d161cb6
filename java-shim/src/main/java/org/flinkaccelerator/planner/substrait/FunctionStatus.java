package org.flinkaccelerator.planner.substrait;

/** How the sidecar runs a Flink function, if at all. */
public enum FunctionStatus {
    /** A DataFusion built-in with Flink's semantics (within the noted type limits). */
    BUILTIN,
    /** The sidecar's own UDF with Flink's semantics, under the Flink extension URN. */
    FLINK_UDF,
    /** Not reproduced exactly: a segment using it stays on stock Flink. */
    UNSUPPORTED
}
