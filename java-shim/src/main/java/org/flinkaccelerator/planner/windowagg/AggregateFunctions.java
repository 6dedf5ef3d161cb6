package org.flinkaccelerator.planner.windowagg;

import java.util.Map;
import java.util.stream.Collectors;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.table.functions.UserDefinedFunction;
import org.apache.flink.table.planner.functions.aggfunctions.AvgAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.Count1AggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.CountAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.MaxAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.MinAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.SumAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.SumWithRetractAggFunction;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.runtime.functions.aggregate.MaxWithRetractAggFunction;
import org.apache.flink.table.runtime.functions.aggregate.MinWithRetractAggFunction;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Maps stock aggregate functions, by their exact class, to what the sidecar implements. The class
 * (not the SQL name) decides, because it is what fixes the accumulator and result types and the
 * overflow rules the sidecar reproduces (docs/design/stateful-window-aggregate.md, §5).
 */
public final class AggregateFunctions {
    private AggregateFunctions() {}

    static final String SUPPORTED = "only COUNT(*), COUNT(x), SUM, MIN, MAX and AVG are";
    static final String SUPPORTED_TYPES = "SUM is over TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE and DECIMAL;"
            + " MIN and MAX over those and BOOLEAN, CHAR, VARCHAR, DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ";

    private static final Map<Class<?>, String> FUNCTIONS = Map.ofEntries(
            Map.entry(Count1AggFunction.class, "count1"),
            Map.entry(CountAggFunction.class, "count"),
            // TINYINT and SMALLINT sums wrap in their own width, as the generated (byte)/(short) cast does.
            Map.entry(SumAggFunction.ByteSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.ShortSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.IntSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.LongSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.FloatSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.DoubleSumAggFunction.class, "sum"),
            Map.entry(SumAggFunction.DecimalSumAggFunction.class, "sum"),
            // Over an updating input (a group aggregate's retractions): sum and count, NULL at count 0.
            Map.entry(SumWithRetractAggFunction.ByteSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.ShortSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.IntSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.LongSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.FloatSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.DoubleSumWithRetractAggFunction.class, "sum_retract"),
            Map.entry(SumWithRetractAggFunction.DecimalSumWithRetractAggFunction.class, "sum_retract"),
            // Numbers compare with Java's < and > (FLOAT and DOUBLE: NaN and -0.0 as IEEE says); strings
            // by their UTF-8 bytes, timestamps by millisecond then nanosecond (accelerator/windowagg/ordered_extremes.py).
            Map.entry(MinAggFunction.ByteMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.ShortMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.IntMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.LongMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.FloatMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.DoubleMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.DecimalMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.BooleanMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.StringMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.DateMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.TimeMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.TimestampMinAggFunction.class, "min"),
            Map.entry(MinAggFunction.TimestampLtzMinAggFunction.class, "min"),
            Map.entry(MaxAggFunction.ByteMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.ShortMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.IntMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.LongMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.FloatMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.DoubleMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.DecimalMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.BooleanMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.StringMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.DateMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.TimeMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.TimestampMaxAggFunction.class, "max"),
            Map.entry(MaxAggFunction.TimestampLtzMaxAggFunction.class, "max"),
            Map.entry(AvgAggFunction.ByteAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.ShortAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.IntAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.LongAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.FloatAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.DoubleAvgAggFunction.class, "avg"),
            Map.entry(AvgAggFunction.DecimalAvgAggFunction.class, "avg"));

    /**
     * The reason the node's {@code call} stays stock for its DISTINCT, or null. Read from the node's
     * calls, not the derived infos: the derivation moves DISTINCT into distinct views.
     */
    public static String callProblem(AggregateCall call, RowType input) {
        if (call.isDistinct()) {
            return shown(call, input) + " is not accelerated: DISTINCT aggregates stay stock";
        }
        return null;
    }

    /** The reason the function of {@code info} stays stock, or null when the sidecar runs it ({@link #spec}). */
    public static String functionProblem(AggregateInfo info, RowType input) {
        String shown = shown(info.agg(), input);
        UserDefinedFunction function = info.function();
        if (FUNCTIONS.containsKey(function.getClass())) {
            return function instanceof CountAggFunction && info.argIndexes().length != 1
                    ? shown + " is not accelerated: COUNT of several arguments stays stock" : null;
        }
        if (function instanceof MinWithRetractAggFunction || function instanceof MaxWithRetractAggFunction) {
            return shown + " over an updating input is not accelerated: stock Flink keeps every value of"
                    + " the group in a map view (" + function.getClass().getSimpleName() + ") to find the next"
                    + " extreme when one is retracted";
        }
        if (function instanceof SumAggFunction || function instanceof SumWithRetractAggFunction
                || function instanceof MinAggFunction || function instanceof MaxAggFunction) {
            return shown + " over " + input.getTypeAt(info.argIndexes()[0]).copy(true).asSummaryString()
                    + " is not accelerated; " + SUPPORTED_TYPES;
        }
        return shown + " is not accelerated; " + SUPPORTED;
    }

    /** {@code info} as the sidecar runs it; only for infos without a {@link #problem}. */
    public static AggregateSpec spec(AggregateInfo info, RowType input, boolean emit) {
        String function = FUNCTIONS.get(info.function().getClass());
        String arg = info.argIndexes().length == 0 ? null : input.getFieldNames().get(info.argIndexes()[0]);
        DataType[] acc = info.externalAccTypes();
        int expected = info.function() instanceof AvgAggFunction
                || info.function() instanceof SumWithRetractAggFunction ? 2 : 1;
        if (acc.length != expected) {
            throw new IllegalStateException(function + " has " + acc.length + " accumulator fields, expected " + expected);
        }
        int filterArg = info.agg().filterArg;
        String filter = filterArg < 0 ? null : input.getFieldNames().get(filterArg);
        return new AggregateSpec(function, arg, acc[0].getLogicalType().asSerializableString(), emit, null, filter);
    }

    /** The call as SQL shows it, with field names: {@code SUM(price)}, {@code COUNT(DISTINCT bidder)}. */
    public static String shown(AggregateCall call, RowType input) {
        String args = call.getArgList().stream().map(i -> input.getFieldNames().get(i))
                .collect(Collectors.joining(", "));
        String name = call.getAggregation().getName();
        String text = name + "(" + (call.isDistinct() ? "DISTINCT " : "")
                + (args.isEmpty() && name.equals("COUNT") ? "*" : args) + ")";
        return call.filterArg < 0 ? text : text + " FILTER (WHERE " + input.getFieldNames().get(call.filterArg) + ")";
    }
}
