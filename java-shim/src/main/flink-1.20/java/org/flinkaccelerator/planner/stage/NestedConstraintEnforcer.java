package org.flinkaccelerator.planner.stage;

import org.apache.flink.configuration.ReadableConfig;

/** Flink 1.20 enforces no constraint on nested fields (the enforcer option came with Flink 2). */
final class NestedConstraintEnforcer {
    private NestedConstraintEnforcer() {}

    /** Always null: nothing is enforced on nested fields. */
    static String problem(ReadableConfig config) {
        return null;
    }
}
