package org.flinkaccelerator.planner.dedup;

import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.flinkaccelerator.planner.windowagg.StockFields;

/** Whether a Flink 2 deduplication emits insert-only first rows (its {@code outputInsertOnly} field). */
final class InsertOnlyFirstRow {
    private InsertOnlyFirstRow() {}

    static boolean of(ExecNode<?> node) {
        Object insertOnly = StockFields.read(node, StreamExecDeduplicate.class, "outputInsertOnly");
        return insertOnly != null && (Boolean) insertOnly;
    }
}
