package org.flinkaccelerator.planner.substrait;

import java.util.List;

/**
 * One Flink function in the registry: how it is written in SQL, the operator keys it matches
 * (an operator's SqlKind, or its name for plain functions), whether and how the sidecar runs it,
 * and in what it differs or why it is not run.
 */
public record FunctionEntry(String sql, List<String> keys, FunctionStatus status, String semantics, FunctionSerde serde) {
    static FunctionEntry builtin(String sql, List<String> keys, String semantics, FunctionSerde serde) {
        return new FunctionEntry(sql, keys, FunctionStatus.BUILTIN, semantics, serde);
    }

    static FunctionEntry flinkUdf(String sql, List<String> keys, String semantics, FunctionSerde serde) {
        return new FunctionEntry(sql, keys, FunctionStatus.FLINK_UDF, semantics, serde);
    }

    static FunctionEntry unsupported(String sql, List<String> keys, String reason) {
        return new FunctionEntry(sql, keys, FunctionStatus.UNSUPPORTED, reason, null);
    }
}
