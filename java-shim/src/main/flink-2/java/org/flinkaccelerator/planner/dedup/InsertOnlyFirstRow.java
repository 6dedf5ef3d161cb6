package org.flinkaccelerator.planner.dedup;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.flinkaccelerator.planner.windowagg.StockFields;

/** What differs between the Flink lines' deduplications: on Flink 2, the insert-only first rows (its {@code outputInsertOnly}). */
final class InsertOnlyFirstRow {
    private InsertOnlyFirstRow() {}

    /** Why no deduplication of this Flink line is accelerated, or null: every Flink 2 one may be. */
    static String lineProblem() {
        return null;
    }

    static boolean of(ExecNode<?> node) {
        Object insertOnly = StockFields.read(node, StreamExecDeduplicate.class, "outputInsertOnly");
        return insertOnly != null && (Boolean) insertOnly;
    }
}
