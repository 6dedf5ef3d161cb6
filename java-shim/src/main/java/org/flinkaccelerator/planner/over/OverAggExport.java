package org.flinkaccelerator.planner.over;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexWindowBound;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.plan.nodes.exec.spec.OverSpec;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.windowagg.AggregateFunctions;
import org.flinkaccelerator.planner.windowagg.AggregateSpec;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock OVER aggregate ({@code StreamExecOverAggregate}): its
 * descriptor ({@code "kind": "over_agg"}, docs/design/stateful-over-aggregate.md) when the sidecar
 * reproduces the {@code RowTimeUnboundedPrecedingOverFunctionV2} stock builds for it (event time,
 * ROWS or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), otherwise every reason it stays
 * stock. The aggregates are derived as the exec node derives them.
 */
public record OverAggExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "over_agg";
    /** Version of the state layout: per key its accumulators, and its held rows with their timestamps. */
    public static final int STATE_FORMAT = 1;
    /** The unbounded OVER function version the sidecar reproduces ({@code table.exec.unbounded-over.version}). */
    static final int OVER_VERSION = 2;
    /** Flink 2.x's option naming it (by its key: Flink 1.20, whose OVER aggregates stay stock, has none). */
    static final String OVER_VERSION_OPTION = "table.exec.unbounded-over.version";

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    static final String TIME = "$time";
    static final String WINDOW = "window";
    static final String AGGREGATES = "aggregates";
    static final String INPUT = "input";
    static final String STATE = "state";

    public OverAggExport {
        fallback = List.copyOf(fallback);
    }

    public boolean accelerated() {
        return descriptor != null;
    }

    /** The descriptor's JSON text, or a {"protocol", "kind", "name", "fallback"} document of the reasons. */
    public String toJson() {
        return accelerated() ? JsonText.pretty(descriptor) : FallbackReason.document(KIND, name, fallback);
    }

    /** Exports {@code node} under {@code name}, with {@code config} the plan's table configuration. */
    public static OverAggExport of(String name, OverAggNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        OverSpec spec = node.overSpec();
        RowType input = node.inputType();
        if (spec.getGroups().size() != 1) {
            return new OverAggExport(name, null, List.of(new FallbackReason(WINDOW, spec.getGroups().size()
                    + " OVER windows in one node; stock Flink computes all aggregates on the same window")));
        }
        OverSpec.GroupSpec group = spec.getGroups().get(0);
        RexWindowBound lower = group.getLowerBound();
        RexWindowBound upper = group.getUpperBound();
        String frame = group.isRows() ? "ROWS" : "RANGE";
        if (!(lower.isPreceding() && lower.isUnbounded() && upper.isCurrentRow())) {
            reasons.add(new FallbackReason(WINDOW, "a " + frame + " BETWEEN " + shown(lower, spec, input) + " AND "
                    + shown(upper, spec, input) + " window is not accelerated; only UNBOUNDED PRECEDING AND CURRENT"
                    + " ROW is"));
        }
        int[] order = group.getSort().getFieldIndices();
        if (order.length != 1 || !LogicalTypeChecks.isRowtimeAttribute(input.getTypeAt(order[0]))) {
            String by = order.length != 1 ? order.length + " columns"
                    : LogicalTypeChecks.isProctimeAttribute(input.getTypeAt(order[0])) ? "processing time"
                    : "the non-time column '" + input.getFieldNames().get(order[0]) + "'";
            reasons.add(new FallbackReason(WINDOW, "an OVER window ordered by " + by + " is not accelerated; only one"
                    + " ordered by an event-time attribute is"));
        }
        if (node.unboundedOverVersion() != OVER_VERSION) {
            reasons.add(new FallbackReason(WINDOW, "stock Flink runs its version " + node.unboundedOverVersion()
                    + " OVER function for this node ('" + OVER_VERSION_OPTION + "' is " + node.unboundedOverVersion()
                    + ", or this Flink line has no other, as 1.20); only version " + OVER_VERSION
                    + " (RowTimeUnboundedPrecedingOverFunctionV2, Flink 2's default) is accelerated"));
        }
        long retention = StatefulFields.stateRetentionMillis(List.of(), config);
        if (retention > 0) {
            reasons.add(new FallbackReason(STATE, "state TTL ('" + ExecutionConfigOptions.IDLE_STATE_RETENTION.key()
                    + "') is " + retention + " ms; only OVER aggregates without state TTL are accelerated"));
        }
        for (AggregateCall call : group.getAggCalls()) {
            if (call.getArgList().stream().anyMatch(arg -> arg >= input.getFieldCount())) {
                reasons.add(new FallbackReason(AGGREGATES, call.getAggregation().getName() + " reads a constant "
                        + spec.getConstants() + "; only aggregates of input columns are accelerated"));
            }
        }
        for (RowType.RowField field : input.getFields()) {
            if (!StatefulFields.ROW_TYPES.contains(field.getType().getTypeRoot())) {
                reasons.add(new FallbackReason(INPUT, "field '" + field.getName() + "' is "
                        + field.getType().asSummaryString() + "; OVER aggregates hold rows of scalar fields only"));
            }
        }
        if (!reasons.isEmpty()) {
            return new OverAggExport(name, null, reasons);
        }
        for (AggregateCall call : group.getAggCalls()) {
            String problem = AggregateFunctions.callProblem(call, input);
            if (problem != null) {
                reasons.add(new FallbackReason(AGGREGATES, problem));
            }
        }
        AggregateInfoList infos = infos(input, group.getAggCalls());
        for (AggregateInfo info : infos.aggInfos()) {
            String problem = OverAggFunctions.functionProblem(info, input);
            if (problem != null) {
                reasons.add(new FallbackReason(AGGREGATES, problem));
            }
        }
        if (infos.distinctInfos().length > 0 && reasons.isEmpty()) {
            reasons.add(new FallbackReason(AGGREGATES, "DISTINCT aggregates stay stock"));
        }
        if (!reasons.isEmpty()) {
            return new OverAggExport(name, null, reasons);
        }
        return new OverAggExport(name, descriptor(name, node, group, infos), List.of());
    }

    /** A window bound as SQL writes it: an offset is one of the node's constants, after the input fields. */
    static String shown(RexWindowBound bound, OverSpec spec, RowType input) {
        if (bound.isUnbounded() || bound.isCurrentRow()
                || !(bound.getOffset() instanceof RexInputRef ref) || ref.getIndex() < input.getFieldCount()) {
            return bound.toString();
        }
        int constant = ref.getIndex() - input.getFieldCount();
        return (constant < spec.getConstants().size() ? spec.getConstants().get(constant).toString() : bound.getOffset()
                .toString()) + (bound.isPreceding() ? " PRECEDING" : " FOLLOWING");
    }

    /** As {@code StreamExecOverAggregate.createUnboundedOverProcessFunction} derives them. */
    static AggregateInfoList infos(RowType input, List<AggregateCall> calls) {
        FlinkTypeFactory types = new FlinkTypeFactory(OverAggExport.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        return AggregateUtil.transformToStreamAggregateInfoList(types, input, JavaScalaConversionUtil.toScala(calls),
                new boolean[calls.size()], false, true, true);
    }

    private static Map<String, Object> descriptor(String name, OverAggNode node, OverSpec.GroupSpec group,
            AggregateInfoList infos) {
        RowType input = node.inputType();
        List<AggregateSpec> aggregates = new ArrayList<>();
        for (AggregateInfo info : infos.aggInfos()) {
            aggregates.add(OverAggFunctions.spec(info, input));
        }
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.overSpec().getPartition().getFieldIndices()) {
            keys.add(StatefulFields.field(input.getFieldNames().get(k), input.getTypeAt(k)));
        }
        List<Map<String, Object>> row = new ArrayList<>();
        for (RowType.RowField f : input.getFields()) {
            row.add(StatefulFields.field(f.getName(), f.getType()));
        }
        List<Map<String, Object>> inputFields = new ArrayList<>();
        inputFields.add(StatefulFields.field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        inputFields.add(StatefulFields.field(KEY_GROUP, new IntType(false)));
        inputFields.add(StatefulFields.field(TIME, new BigIntType(false)));
        inputFields.addAll(row);
        List<Map<String, Object>> output = new ArrayList<>();
        for (RowType.RowField f : node.outputType().getFields()) {
            output.add(StatefulFields.field(f.getName(), f.getType()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("frame", group.isRows() ? "rows" : "range");
        out.put("keys", keys);
        out.put("rowtime", input.getFieldNames().get(group.getSort().getFieldIndices()[0]));
        out.put("input", Map.of("fields", inputFields));
        out.put(AGGREGATES, aggregates.stream().map(AggregateSpec::tree).toList());
        out.put("output", Map.of("fields", output));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        state.put("fingerprint", fingerprint(out, keys, aggregates, row));
        out.put(STATE, state);
        return out;
    }

    /** The SHA-256 of what decides whether saved state fits the query: kind, keys, frame, rowtime, aggregates and row. */
    static String fingerprint(Map<String, Object> descriptor, List<Map<String, Object>> keys,
            List<AggregateSpec> aggregates, List<Map<String, Object>> row) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("kind", KIND);
        state.put("keys", keys);
        state.put("frame", descriptor.get("frame"));
        state.put("rowtime", descriptor.get("rowtime"));
        state.put(AGGREGATES, aggregates.stream().map(AggregateSpec::tree).toList());
        state.put("row", row);
        return StateFingerprint.sha256(state);
    }
}
