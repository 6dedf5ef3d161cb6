package org.flinkaccelerator.planner.groupwindow;

import java.time.Instant;
import java.time.ZoneId;
import java.time.zone.ZoneRules;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.plan.logical.LogicalWindow;
import org.apache.flink.table.planner.plan.logical.SessionGroupWindow;
import org.apache.flink.table.planner.plan.logical.SlidingGroupWindow;
import org.apache.flink.table.planner.plan.logical.TumblingGroupWindow;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.plan.utils.WindowEmitStrategy;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.runtime.groupwindow.ProctimeAttribute;
import org.apache.flink.table.runtime.groupwindow.RowtimeAttribute;
import org.apache.flink.table.runtime.groupwindow.WindowEnd;
import org.apache.flink.table.runtime.groupwindow.WindowStart;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.planner.over.OverAggFunctions;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.windowagg.AggregateFunctions;
import org.flinkaccelerator.planner.windowagg.AggregateSpec;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.runtime.groupwindow.GroupWindowSpec;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock group window aggregate ({@code StreamExecGroupWindowAggregate}):
 * its descriptor ({@code "kind": "group_window"}) when the sidecar reproduces the
 * {@code AggregateWindowOperator} stock builds for it (an event-time TUMBLE, HOP or SESSION window
 * over a TIMESTAMP rowtime, or a processing-time TUMBLE or HOP window in a UTC local time zone, insert-only input, no early or late firing, aggregates the window
 * aggregate's accumulators run, and {@code $SUM0}, into which the planner rewrites AVG), otherwise every reason it stays stock. The aggregates are derived
 * as the exec node derives them.
 */
public record GroupWindowExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "group_window";
    /** Version of the state layout: per key its windows, panes or sessions, their accumulators and timers. */
    public static final int STATE_FORMAT = 1;

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    static final String TIME = "$time";
    static final String WINDOW = "window";
    static final String AGGREGATES = "aggregates";
    static final String EMIT = "emit";
    /**
     * The window tree's entry of a processing-time window ({@link GroupWindowSpec#PROCESSING_TIME}); an
     * event-time window has none, so its descriptor and state fingerprint are those of before.
     */
    static final String TIME_DOMAIN = "time";

    public GroupWindowExport {
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
    public static GroupWindowExport of(String name, GroupWindowNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        RowType input = node.inputType();
        LogicalWindow window = node.window();
        Map<String, Object> windowTree = windowTree(window, reasons);
        FieldReferenceExpression time = window.timeAttribute();
        if (AggregateUtil.isProctimeAttribute(time)) {
            if ("session".equals(windowTree.get("type"))) {
                reasons.add(new FallbackReason(WINDOW, "processing-time SESSION windows are not accelerated; only"
                        + " processing-time TUMBLE and HOP windows and event-time windows are"));
            }
            ZoneId zone = TimeWindowUtil.getShiftTimeZone(time.getOutputDataType().getLogicalType(),
                    TableConfigUtils.getLocalTimeZone(config));
            if (!isUtc(zone)) {
                reasons.add(new FallbackReason(WINDOW, "processing-time windows in table.local-time-zone '" + zone
                        + "' start and end at that zone's local times; only a zone at UTC+0 all year is accelerated"));
            }
            windowTree.put(TIME_DOMAIN, GroupWindowSpec.PROCESSING_TIME);
        }
        int rowtimeIndex = input.getFieldNames().indexOf(time.getName());
        LogicalType timeType = rowtimeIndex < 0 ? null : input.getTypeAt(rowtimeIndex);
        if (AggregateUtil.isRowtimeAttribute(time) && (timeType == null
                || !LogicalTypeChecks.isRowtimeAttribute(timeType)
                || timeType.getTypeRoot() != LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
            reasons.add(new FallbackReason(WINDOW, "the window's time attribute '" + time.getName() + "' is "
                    + (timeType == null ? "no input field" : timeType.asSummaryString()) + "; only a TIMESTAMP rowtime"
                    + " is accelerated (a TIMESTAMP_LTZ rowtime's windows shift with table.local-time-zone)"));
        }
        try {
            WindowEmitStrategy emit = WindowEmitStrategy.apply(config, window);
            if (emit.produceUpdates() || emit.getAllowLateness() != 0L) {
                reasons.add(new FallbackReason(EMIT, "early or late firing ('table.exec.emit.*': " + emit
                        + ") is not accelerated; only firing once when the watermark passes the window end is"));
            }
        } catch (RuntimeException e) {
            reasons.add(new FallbackReason(EMIT, "stock Flink's emit strategy for this window cannot be read: " + e));
        }
        if (node.needRetraction()) {
            reasons.add(new FallbackReason(AGGREGATES, "the input is not insert-only (the aggregate needs retraction)"));
        }
        for (NamedWindowProperty property : node.windowProperties()) {
            if (propertyName(property) == null) {
                reasons.add(new FallbackReason(WINDOW, "window property " + property.getName() + " ("
                        + property.getProperty() + ") is not accelerated"));
            }
        }
        for (AggregateCall call : node.aggCalls()) {
            String problem = AggregateFunctions.callProblem(call, input);
            if (problem != null) {
                reasons.add(new FallbackReason(AGGREGATES, problem));
            }
        }
        if (!reasons.isEmpty()) {
            return new GroupWindowExport(name, null, reasons);
        }
        AggregateInfoList infos = infos(input, node.aggCalls());
        for (AggregateInfo info : infos.aggInfos()) {
            String problem = OverAggFunctions.functionProblem(info, input);
            if (problem != null) {
                reasons.add(new FallbackReason(AGGREGATES, problem));
            }
        }
        if (infos.distinctInfos().length > 0 && reasons.isEmpty()) {
            reasons.add(new FallbackReason(AGGREGATES, "DISTINCT aggregates stay stock"));
        }
        if (infos.aggInfos().length != node.aggCalls().length && reasons.isEmpty()) {
            reasons.add(new FallbackReason(AGGREGATES, "stock Flink derived " + infos.aggInfos().length
                    + " aggregates for " + node.aggCalls().length + " calls, which is not accelerated"));
        }
        if (!reasons.isEmpty()) {
            return new GroupWindowExport(name, null, reasons);
        }
        return new GroupWindowExport(name, descriptor(name, node, infos, windowTree), List.of());
    }

    /**
     * The input field the operator reads the rowtime from (only for an exported node); -1 for a
     * processing-time window, whose time the operator reads from the processing-time service.
     */
    public static int rowtimeIndex(GroupWindowNode node) {
        FieldReferenceExpression time = node.window().timeAttribute();
        return AggregateUtil.isProctimeAttribute(time) ? -1 : node.inputType().getFieldNames().indexOf(time.getName());
    }

    /** Whether {@code zone} is UTC+0 at every instant, so stock's shift of processing time into it changes nothing. */
    static boolean isUtc(ZoneId zone) {
        ZoneRules rules = zone.getRules();
        return rules.isFixedOffset() && rules.getOffset(Instant.EPOCH).getTotalSeconds() == 0;
    }

    /** The window as the descriptor names it; a window the sidecar does not assign adds its reason. */
    private static Map<String, Object> windowTree(LogicalWindow window, List<FallbackReason> reasons) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (window instanceof TumblingGroupWindow tumble && AggregateUtil.hasTimeIntervalType(tumble.size())) {
            out.put("type", "tumble");
            out.put("size_ms", AggregateUtil.toDuration(tumble.size()).toMillis());
        } else if (window instanceof SlidingGroupWindow hop && AggregateUtil.hasTimeIntervalType(hop.size())) {
            out.put("type", "hop");
            out.put("size_ms", AggregateUtil.toDuration(hop.size()).toMillis());
            out.put("slide_ms", AggregateUtil.toDuration(hop.slide()).toMillis());
        } else if (window instanceof SessionGroupWindow session) {
            out.put("type", "session");
            out.put("gap_ms", AggregateUtil.toDuration(session.gap()).toMillis());
        } else {
            reasons.add(new FallbackReason(WINDOW, "group window " + window + " is not accelerated; only TUMBLE, HOP"
                    + " and SESSION over time intervals are"));
        }
        return out;
    }

    /** As {@code StreamExecGroupWindowAggregate.translateToPlanInternal} derives them (insert-only input). */
    static AggregateInfoList infos(RowType input, AggregateCall[] calls) {
        FlinkTypeFactory types = new FlinkTypeFactory(GroupWindowExport.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        return AggregateUtil.transformToStreamAggregateInfoList(types, input,
                JavaScalaConversionUtil.toScala(Arrays.asList(calls)), new boolean[calls.length], false, true, true);
    }

    private static Map<String, Object> descriptor(String name, GroupWindowNode node, AggregateInfoList infos,
            Map<String, Object> windowTree) {
        RowType input = node.inputType();
        List<AggregateSpec> aggregates = new ArrayList<>();
        Set<Integer> args = new LinkedHashSet<>();
        for (AggregateInfo info : infos.aggInfos()) {
            aggregates.add(OverAggFunctions.spec(info, input));
            Arrays.stream(info.argIndexes()).forEach(args::add);
            if (info.agg().filterArg >= 0) {
                args.add(info.agg().filterArg);
            }
        }
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.grouping()) {
            keys.add(StatefulFields.field(input.getFieldNames().get(k), input.getTypeAt(k)));
        }
        List<Map<String, Object>> inputFields = new ArrayList<>();
        inputFields.add(StatefulFields.field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        inputFields.add(StatefulFields.field(KEY_GROUP, new IntType(false)));
        inputFields.add(StatefulFields.field(TIME, new BigIntType(false)));
        for (int i : args) {
            inputFields.add(StatefulFields.field(input.getFieldNames().get(i), input.getTypeAt(i)));
        }
        List<Map<String, Object>> output = new ArrayList<>();
        for (RowType.RowField f : node.outputType().getFields()) {
            output.add(StatefulFields.field(f.getName(), f.getType()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put(WINDOW, windowTree);
        out.put("keys", keys);
        out.put("input", Map.of("fields", inputFields));
        out.put(AGGREGATES, aggregates.stream().map(AggregateSpec::tree).toList());
        out.put("window_properties", Arrays.stream(node.windowProperties()).map(GroupWindowExport::propertyName)
                .toList());
        out.put("output", Map.of("fields", output));
        Map<String, Object> fingerprinted = new LinkedHashMap<>();
        fingerprinted.put("kind", KIND);
        fingerprinted.put("keys", keys);
        fingerprinted.put(WINDOW, windowTree);
        fingerprinted.put(AGGREGATES, aggregates.stream().map(AggregateSpec::tree).toList());
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        state.put("fingerprint", StateFingerprint.sha256(fingerprinted));
        out.put("state", state);
        return out;
    }

    /** The property as the descriptor names it, or null for one the sidecar does not compute. */
    private static String propertyName(NamedWindowProperty property) {
        if (property.getProperty() instanceof WindowStart) {
            return "window_start";
        }
        if (property.getProperty() instanceof WindowEnd) {
            return "window_end";
        }
        if (property.getProperty() instanceof RowtimeAttribute) {
            return "window_time";
        }
        if (property.getProperty() instanceof ProctimeAttribute) {
            // The planner adds it to every group window; stock's aggregate handler makes it NULL.
            return "window_proctime";
        }
        return null;
    }
}
