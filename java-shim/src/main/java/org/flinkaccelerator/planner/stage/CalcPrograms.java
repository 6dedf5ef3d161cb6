package org.flinkaccelerator.planner.stage;

import java.lang.reflect.Field;
import java.util.List;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.plan.nodes.exec.common.CommonExecCalc;
import org.flinkaccelerator.planner.substrait.CalcProgram;

/**
 * Reads a Calc's projection and condition. Flink keeps them in protected fields of
 * CommonExecCalc without getters, so they are read reflectively; a Flink whose fields moved
 * fails here, and the segment stays stock.
 */
final class CalcPrograms {
    private static final Field PROJECTION = field("projection");
    private static final Field CONDITION = field("condition");

    private CalcPrograms() {}

    @SuppressWarnings("unchecked")
    static CalcProgram of(CommonExecCalc calc, String description) {
        try {
            return new CalcProgram(description, (List<RexNode>) PROJECTION.get(calc), (RexNode) CONDITION.get(calc));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read the program of " + calc.getDescription(), e);
        }
    }

    private static Field field(String name) {
        try {
            Field field = CommonExecCalc.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("CommonExecCalc has no field '" + name + "' in this Flink version", e);
        }
    }
}
