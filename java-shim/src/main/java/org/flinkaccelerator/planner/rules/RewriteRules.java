package org.flinkaccelerator.planner.rules;

import java.util.List;

/**
 * The rules the planner applies when the accelerator is enabled, in order. None replaces nodes
 * yet: the graph stays stock and the segments that could be accelerated are only reported.
 */
public final class RewriteRules {
    private RewriteRules() {}

    public static List<RewriteRule> all() {
        return List.of(new ExportKafkaSegments());
    }
}
