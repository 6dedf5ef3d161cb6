package org.flinkaccelerator.planner.join;

import org.apache.flink.table.runtime.operators.join.FlinkJoinType;

/**
 * On the Flink 1.20 line LEFT, RIGHT, FULL, SEMI and ANTI joins stay stock: compared with 1.20's
 * own {@code StreamingJoinOperator} (AcceleratedOuterJoinOperatorTest under -Pflink-1.20), the
 * accelerated join's outer output is 2.x's, not 1.20's; semi/anti are not compared on 1.20 yet.
 * INNER joins give 1.20's output.
 */
final class JoinLine {
    private JoinLine() {}

    /** Why a join of {@code type} stays stock on this line, or null. */
    static String problem(FlinkJoinType type) {
        if (type == FlinkJoinType.INNER) {
            return null;
        }
        return "this is the Flink 1.20 line, where " + type.name() + " joins stay stock: the accelerated"
                + " outer, semi and anti joins reproduce 2.x's join operators, and 1.20's StreamingJoinOperator"
                + " emits an outer join's rows otherwise (its semi/anti operator is not compared yet); INNER"
                + " joins run accelerated";
    }
}
