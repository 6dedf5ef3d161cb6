package org.flinkaccelerator.planner.over;

import java.util.Set;
import org.apache.flink.table.planner.functions.aggfunctions.Sum0AggFunction;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.windowagg.AggregateFunctions;
import org.flinkaccelerator.planner.windowagg.AggregateSpec;

/**
 * The aggregate functions of an OVER aggregate (and of a group window aggregate) as the sidecar
 * runs them: the window aggregate's ({@link AggregateFunctions}) and {@code $SUM0}, which Calcite
 * makes of {@code SUM(x) OVER w} ({@code CASE WHEN COUNT(x) OVER w > 0 THEN $SUM0(x) OVER w END})
 * and of a group window's {@code AVG(x)} ({@code $SUM0(x) / COUNT(x)}): SUM's fold from an
 * accumulator of 0 instead of NULL. A DECIMAL {@code $SUM0} stays stock: past 38 digits its sum
 * turns NULL and stays NULL, where SUM's restarts.
 */
public final class OverAggFunctions {
    public static final String SUM0 = "sum0";
    private static final Set<Class<?>> SUM0_CLASSES = Set.of(Sum0AggFunction.IntSum0AggFunction.class,
            Sum0AggFunction.LongSum0AggFunction.class, Sum0AggFunction.DoubleSum0AggFunction.class);

    private OverAggFunctions() {}

    /** The reason the function of {@code info} stays stock, or null when the sidecar runs it ({@link #spec}). */
    public static String functionProblem(AggregateInfo info, RowType input) {
        if (SUM0_CLASSES.contains(info.function().getClass())) {
            return null;
        }
        if (info.function() instanceof Sum0AggFunction) {
            return AggregateFunctions.shown(info.agg(), input) + " over "
                    + input.getTypeAt(info.argIndexes()[0]).copy(true).asSummaryString()
                    + " is not accelerated; $SUM0 (a SUM in an OVER window, an AVG in a group window) is over INT,"
                    + " BIGINT and DOUBLE";
        }
        return AggregateFunctions.functionProblem(info, input);
    }

    /** {@code info} as the sidecar runs it; only for infos without a {@link #functionProblem}. */
    public static AggregateSpec spec(AggregateInfo info, RowType input) {
        if (!SUM0_CLASSES.contains(info.function().getClass())) {
            return AggregateFunctions.spec(info, input, true);
        }
        String arg = input.getFieldNames().get(info.argIndexes()[0]);
        int filterArg = info.agg().filterArg;
        return new AggregateSpec(SUM0, arg, info.externalAccTypes()[0].getLogicalType().asSerializableString(), true,
                null, filterArg < 0 ? null : input.getFieldNames().get(filterArg));
    }
}
