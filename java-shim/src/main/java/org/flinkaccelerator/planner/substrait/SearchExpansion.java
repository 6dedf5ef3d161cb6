package org.flinkaccelerator.planner.substrait;

import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;

/**
 * The planner folds IN lists, BETWEEN and ORs of ranges into SEARCH(x, Sarg[...]); this expands
 * one back into plain comparisons joined by AND/OR, which the registry knows.
 */
final class SearchExpansion {
    private static final RexBuilder REX_BUILDER = new RexBuilder(
            new FlinkTypeFactory(SearchExpansion.class.getClassLoader(), FlinkTypeSystem.INSTANCE));

    private SearchExpansion() {}

    static FunctionEntry entry() {
        return FunctionEntry.builtin("x IN (...), x BETWEEN a AND b, x NOT IN / NOT BETWEEN", List.of("SEARCH"),
                "expanded to comparisons, AND, OR", (call, c) -> c.convert(expand(call)));
    }

    static RexNode expand(RexCall search) {
        return RexUtil.expandSearch(REX_BUILDER, null, search);
    }
}
