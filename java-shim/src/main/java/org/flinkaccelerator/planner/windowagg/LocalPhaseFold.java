package org.flinkaccelerator.planner.windowagg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.functions.aggfunctions.Count1AggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.CountAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.MaxAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.MinAggFunction;
import org.apache.flink.table.planner.functions.aggfunctions.SumAggFunction;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * Whether a rows stage can answer the partial rows of the stock local window aggregate
 * ({@code StreamExecLocalWindowAggregate}) that reads one of its outputs, and the
 * {@code local_window_agg} section that says how (accelerator/windowagg/local_phase.py; the
 * exactness argument is docs/design/stateful-window-aggregate.md, "Increment 2: the local phase in
 * the rows stage"). The stage computes a batch's partials at once, which equals stock's flushes
 * only when no watermark falls inside a batch (periodic watermark emission) and the global phase
 * merges partials associatively and commutatively (COUNT(*), COUNT(x), and SUM, MIN, MAX over
 * integers), over keys whose value equality is stock's key byte equality.
 *
 * @param section the descriptor section, null when the local phase stays stock
 * @param output the rows the stage emits instead: the local aggregate's own output type
 * @param reasons why the local phase stays stock (empty when folded)
 */
public record LocalPhaseFold(Map<String, Object> section, RowType output, List<FallbackReason> reasons) {
    private static final String WHERE = "local window aggregate";
    private static final Set<Class<?>> FOLDED = Set.of(Count1AggFunction.class, CountAggFunction.class,
            SumAggFunction.ByteSumAggFunction.class, SumAggFunction.ShortSumAggFunction.class,
            SumAggFunction.IntSumAggFunction.class, SumAggFunction.LongSumAggFunction.class,
            MinAggFunction.ByteMinAggFunction.class, MinAggFunction.ShortMinAggFunction.class,
            MinAggFunction.IntMinAggFunction.class, MinAggFunction.LongMinAggFunction.class,
            MaxAggFunction.ByteMaxAggFunction.class, MaxAggFunction.ShortMaxAggFunction.class,
            MaxAggFunction.IntMaxAggFunction.class, MaxAggFunction.LongMaxAggFunction.class);
    private static final Set<LogicalTypeRoot> KEY_TYPES = Set.of(LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT,
            LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.DATE);

    public LocalPhaseFold {
        reasons = List.copyOf(reasons);
    }

    public boolean folded() {
        return section != null;
    }

    /**
     * The fold of {@code local}, which reads the rows of a rows stage whose watermarks are generated
     * as {@code watermarks} describes (null: the stage generates none).
     */
    public static LocalPhaseFold of(StreamExecLocalWindowAggregate local, WatermarkSpec watermarks,
            ReadableConfig config) {
        Class<?> owner = StreamExecLocalWindowAggregate.class;
        RowType input = (RowType) local.getInputEdges().get(0).getOutputType();
        RowType output = (RowType) local.getOutputType();
        int[] grouping;
        AggregateCall[] calls;
        WindowingStrategy windowing;
        try {
            grouping = (int[]) StockFields.read(local, owner, "grouping");
            calls = (AggregateCall[]) StockFields.read(local, owner, "aggCalls");
            windowing = (WindowingStrategy) StockFields.read(local, owner, "windowing");
        } catch (StockFields.Missing e) {
            return stock(output, List.of(new FallbackReason(WHERE, e.getMessage())));
        }
        WindowAggNode node = new WindowAggNode(local, WindowAggPhase.SINGLE, grouping, calls, windowing,
                new NamedWindowProperty[0], false, input);
        List<FallbackReason> reasons = new ArrayList<>(WindowAggChecks.windowing(node));
        if (watermarks == null) {
            reasons.add(new FallbackReason(WHERE, "the rows stage generates no watermarks for it"));
        } else if (watermarks.onEvent()) {
            reasons.add(new FallbackReason(WHERE, "the source emits a watermark per event"
                    + " ('scan.watermark.emit.strategy' = 'on-event'), which can fall inside a batch; only periodic"
                    + " watermarks, which fall between batches, let a batch's rows be combined at once"));
        }
        for (AggregateCall call : calls) {
            if (call.isDistinct() || call.filterArg >= 0) {
                reasons.add(new FallbackReason(WHERE, AggregateFunctions.shown(call, input)
                        + " is not folded: DISTINCT and FILTER stay stock"));
            }
        }
        if (!reasons.isEmpty()) {
            return stock(output, reasons);
        }
        AggregateInfoList infos = infos(input, calls, windowing);
        for (AggregateInfo info : infos.aggInfos()) {
            if (!FOLDED.contains(info.function().getClass())
                    || (info.function() instanceof CountAggFunction && info.argIndexes().length != 1)) {
                reasons.add(new FallbackReason(WHERE, AggregateFunctions.shown(info.agg(), input) + " is not folded:"
                        + " only COUNT(*), COUNT(x) and SUM, MIN, MAX over TINYINT, SMALLINT, INT and BIGINT are, whose"
                        + " partials merge in any grouping (a DOUBLE sum's rounding follows where stock splits them)"));
            }
        }
        for (int k : grouping) {
            if (!KEY_TYPES.contains(input.getTypeAt(k).getTypeRoot())) {
                reasons.add(new FallbackReason(WHERE, "grouping key " + input.getFieldNames().get(k) + " ("
                        + input.getTypeAt(k).asSummaryString() + ") is not folded: only integer, string, BOOLEAN and"
                        + " DATE keys are, whose value equality is Flink's key byte equality"));
            }
        }
        SlicedWindow window = SlicedWindow.of(windowing.getWindow(), windowing.getTimeAttributeType(), config);
        if (window == null) {
            reasons.add(new FallbackReason(WHERE, "its window is not TUMBLE, HOP or CUMULATE"));
        } else {
            reasons.addAll(WindowAggChecks.zone(window));
        }
        int accs = infos.getAccTypes().length;
        if (output.getFieldCount() != grouping.length + accs + 1
                || !output.getTypeAt(output.getFieldCount() - 1).copy(true).equals(new BigIntType(true))) {
            reasons.add(new FallbackReason(WHERE, "its output " + output.asSummaryString() + " is not the "
                    + grouping.length + " keys, " + accs + " accumulators and the slice end"));
        }
        if (!reasons.isEmpty()) {
            return stock(output, reasons);
        }
        return new LocalPhaseFold(section(input, output, grouping, infos, window,
                ((TimeAttributeWindowingStrategy) windowing).getTimeAttributeIndex()), output, List.of());
    }

    private static LocalPhaseFold stock(RowType output, List<FallbackReason> reasons) {
        return new LocalPhaseFold(null, output, reasons);
    }

    /** As {@code StreamExecLocalWindowAggregate.translateToPlanInternal} derives them. */
    private static AggregateInfoList infos(RowType input, AggregateCall[] calls, WindowingStrategy windowing) {
        FlinkTypeFactory types = new FlinkTypeFactory(LocalPhaseFold.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        return AggregateUtil.deriveStreamWindowAggregateInfoList(types, input,
                JavaScalaConversionUtil.toScala(Arrays.asList(calls)), false, windowing.getWindow(), false);
    }

    private static Map<String, Object> section(RowType input, RowType output, int[] grouping, AggregateInfoList infos,
            SlicedWindow window, int time) {
        List<String> keys = new ArrayList<>();
        for (int k : grouping) {
            keys.add(input.getFieldNames().get(k));
        }
        List<Map<String, Object>> aggregates = new ArrayList<>();
        int column = grouping.length;
        for (AggregateInfo info : infos.aggInfos()) {
            Map<String, Object> aggregate = new LinkedHashMap<>();
            aggregate.put("function", info.function() instanceof Count1AggFunction ? "count1"
                    : info.function() instanceof CountAggFunction ? "count"
                    : info.function() instanceof SumAggFunction ? "sum"
                    : info.function() instanceof MinAggFunction ? "min" : "max");
            aggregate.put("arg", info.argIndexes().length == 0 ? null : input.getFieldNames().get(info.argIndexes()[0]));
            // The accumulator is the local phase's output column, the type its partial travels in.
            aggregate.put("acc", output.getTypeAt(column++).asSerializableString());
            aggregates.add(aggregate);
        }
        List<Map<String, Object>> fields = new ArrayList<>();
        for (RowType.RowField f : output.getFields()) {
            Map<String, Object> field = new LinkedHashMap<>();
            field.put("name", f.getName());
            field.put("type", f.getType().asSerializableString());
            fields.add(field);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("keys", keys);
        out.put("time", input.getFieldNames().get(time));
        out.put("window", window.tree());
        out.put("aggregates", aggregates);
        out.put("output", Map.of("fields", fields));
        return out;
    }
}
