package org.flinkaccelerator.planner.stage;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.NestedEnforcer;

/**
 * Flink 2's enforcer of constraints on nested fields ({@code table.exec.sink.nested-constraint-enforcer}),
 * which the stages do not reproduce.
 */
final class NestedConstraintEnforcer {
    private NestedConstraintEnforcer() {}

    /** Why a sink with nested columns stays stock under {@code config}, or null when nothing is enforced on them. */
    static String problem(ReadableConfig config) {
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NESTED_CONSTRAINT_ENFORCER) == NestedEnforcer.IGNORE) {
            return null;
        }
        return "'" + ExecutionConfigOptions.TABLE_EXEC_SINK_NESTED_CONSTRAINT_ENFORCER.key() + "' is not IGNORE:"
                + " Flink's constraints on nested fields are not reproduced yet";
    }
}
