package org.flinkaccelerator.planner.join;

import io.substrait.proto.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.substrait.CalcProgram;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.flinkaccelerator.planner.substrait.NotReproducible;
import org.flinkaccelerator.planner.substrait.SegmentPlanBuilder;
import org.flinkaccelerator.stage.ProtoJson;

/**
 * A regular join's non-equi condition ({@code JoinSpec.getNonEquiCondition()}, a RexNode over the
 * left row's fields then the right row's) as the descriptor's {@code condition} section: a
 * Substrait plan, exported by the same registry as a Calc's condition, that reads the candidate
 * joined rows as the table {@value SegmentPlanBuilder#DECODED} and answers one BOOLEAN column
 * {@value #MATCH}. Stock's {@code JoinConditionWithNullFilters} applies the generated condition to
 * each (left row, right row) pair and keeps the pair only when it is TRUE, so the sidecar keeps
 * the joined rows whose {@value #MATCH} is TRUE (not FALSE, not NULL).
 */
public final class JoinCondition {
    /** The plan's one result column: the condition's value for each joined row. */
    static final String MATCH = "$match";
    /** Where the fallback reason of a condition the registry does not reproduce points. */
    static final String WHERE = "join condition";

    private JoinCondition() {}

    /**
     * The {@code condition} section for {@code condition} over {@code joined} (the join's output
     * row: left fields then right fields).
     *
     * @throws NotReproducible with the registry's reason, prefixed by the expression it refused
     */
    public static Map<String, Object> section(RexNode condition, RowType joined, FunctionRegistry registry) {
        Plan plan = new SegmentPlanBuilder(registry).build(joined,
                List.of(new CalcProgram(WHERE, List.of(condition), null)), List.of(MATCH),
                RowType.of(new BooleanType()));
        Map<String, Object> section = new LinkedHashMap<>();
        section.put("column", MATCH);
        section.put("plan", ProtoJson.tree(plan));
        return section;
    }

    /**
     * The {@code condition} section of {@code spec}'s non-equi condition over {@code joined} with
     * the standard registry, or null: when there is none, and when the registry refuses it, whose
     * reason then goes into {@code reasons} under {@code where} (the family's report area).
     */
    public static Map<String, Object> sectionOrReason(JoinSpec spec, RowType joined, String where,
            List<FallbackReason> reasons) {
        if (spec.getNonEquiCondition().isEmpty()) {
            return null;
        }
        try {
            return section(spec.getNonEquiCondition().get(), joined, FunctionRegistry.standard());
        } catch (NotReproducible e) {
            reasons.add(new FallbackReason(where, e.getMessage()));
            return null;
        }
    }
}
