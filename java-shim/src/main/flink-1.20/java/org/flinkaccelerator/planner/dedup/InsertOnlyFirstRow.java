package org.flinkaccelerator.planner.dedup;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;

/** Flink 1.20's deduplications never emit insert-only first rows (that mode came with Flink 2). */
final class InsertOnlyFirstRow {
    private InsertOnlyFirstRow() {}

    static boolean of(ExecNode<?> node) {
        return false;
    }
}
