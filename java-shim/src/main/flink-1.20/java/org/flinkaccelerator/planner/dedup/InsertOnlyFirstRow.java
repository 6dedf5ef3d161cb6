package org.flinkaccelerator.planner.dedup;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;

/**
 * What differs between the Flink lines' deduplications: Flink 1.20's never emit insert-only first
 * rows (that mode came with Flink 2), and the accelerated deduplication does not match 1.20's
 * stock functions yet (the operator harness comparison, AcceleratedDedupOperatorTest, differs on
 * 1.20), so every 1.20 deduplication stays stock.
 */
final class InsertOnlyFirstRow {
    private InsertOnlyFirstRow() {}

    /** Why no deduplication of this Flink line is accelerated. */
    static String lineProblem() {
        return "the accelerated deduplication does not reproduce Flink 1.20's deduplicate functions yet";
    }

    static boolean of(ExecNode<?> node) {
        return false;
    }
}
