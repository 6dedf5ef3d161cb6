package org.flinkaccelerator.planner.groupagg;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.OptimizerConfigOptions;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.AggregateFunctions;

/**
 * The DISTINCT aggregates of a group aggregate (docs/design/stateful-group-aggregate.md §4.1):
 * the sidecar runs them in a single-phase aggregate over an insert-only input, where stock's
 * distinct map view holds, per group and argument, each value with a bitmask of the aggregates
 * (their FILTERs) that saw it. Everything else keeps the aggregate stock, with a reason each.
 */
final class DistinctAggregates {
    /**
     * Argument types whose values the sidecar tells apart as stock's map view keys do (stock's
     * {@code AggregateUtil.createDistinctKeyType} also takes INTERVAL and ARRAY, which stay stock).
     */
    static final Set<LogicalTypeRoot> VALUE_TYPES = EnumSet.of(LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.TINYINT,
            LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.FLOAT,
            LogicalTypeRoot.DOUBLE, LogicalTypeRoot.DECIMAL, LogicalTypeRoot.DATE,
            LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);
    /** Stock's bitmask is one {@code long} up to 64 aggregates per argument, a {@code long[]} past them. */
    static final int MAX_PER_ARGUMENT = 64;

    private DistinctAggregates() {}

    /** Why the DISTINCT calls of {@code node} keep it stock; empty when it has none or the sidecar runs them. */
    static List<FallbackReason> problems(GroupAggNode node, ReadableConfig config) {
        RowType input = node.inputType();
        List<FallbackReason> reasons = new ArrayList<>();
        Map<List<Integer>, Integer> perArgument = new LinkedHashMap<>();
        for (AggregateCall call : node.aggCalls()) {
            if (!call.isDistinct()) {
                continue;
            }
            String shown = AggregateFunctions.shown(call, input);
            String problem = problem(call, node, input);
            if (problem != null) {
                reasons.add(new FallbackReason(GroupAggExport.AGGREGATES, shown + " is not accelerated: " + problem));
            }
            perArgument.merge(call.getArgList(), 1, Integer::sum);
        }
        perArgument.forEach((args, count) -> {
            if (count > MAX_PER_ARGUMENT) {
                reasons.add(new FallbackReason(GroupAggExport.AGGREGATES, count + " DISTINCT aggregates over "
                        + args.stream().map(i -> input.getFieldNames().get(i)).toList() + " are not accelerated:"
                        + " stock Flink's distinct view marks them in a long[] past " + MAX_PER_ARGUMENT
                        + ", the sidecar in one 64-bit mask"));
            }
        });
        if (!perArgument.isEmpty() && config.get(OptimizerConfigOptions.TABLE_OPTIMIZER_DISTINCT_AGG_SPLIT_ENABLED)) {
            reasons.add(new FallbackReason(GroupAggExport.AGGREGATES, "'"
                    + OptimizerConfigOptions.TABLE_OPTIMIZER_DISTINCT_AGG_SPLIT_ENABLED.key() + "' is true: the"
                    + " split DISTINCT aggregates (a partial aggregate per bucket of the value's hash, merged by a"
                    + " second aggregate) are not accelerated"));
        }
        return reasons;
    }

    private static String problem(AggregateCall call, GroupAggNode node, RowType input) {
        if (node.needRetraction()) {
            return "DISTINCT over an updating input stays stock (stock Flink counts each value's rows per"
                    + " aggregate in its distinct view to retract them)";
        }
        // One argument: stock's streaming COUNT takes one, the other functions the sidecar runs too.
        int arg = call.getArgList().get(0);
        if (arg >= input.getFieldCount()) {
            return "DISTINCT over a constant stays stock";
        }
        LogicalTypeRoot root = input.getTypeAt(arg).getTypeRoot();
        if (!VALUE_TYPES.contains(root)) {
            return "DISTINCT over " + input.getTypeAt(arg).copy(true).asSummaryString() + " stays stock; DISTINCT"
                    + " runs over " + VALUE_TYPES;
        }
        return null;
    }
}
