package org.flinkaccelerator.planner.windowagg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.runtime.groupwindow.NamedWindowProperty;
import org.apache.flink.table.runtime.groupwindow.RowtimeAttribute;
import org.apache.flink.table.runtime.groupwindow.WindowEnd;
import org.apache.flink.table.runtime.groupwindow.WindowStart;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one window aggregate: its descriptor ({@code "kind": "window_agg"},
 * docs/design/stateful-window-aggregate.md §2) when the sidecar reproduces it exactly, otherwise
 * every reason it stays stock. The aggregates are derived as the exec node derives them, so the
 * descriptor names the same functions, accumulators and hidden COUNT(*) the stock operator runs.
 */
public record WindowAggExport(String name, WindowAggPhase phase, Map<String, Object> descriptor,
        List<FallbackReason> fallback) {
    public static final String KIND = "window_agg";
    /** Version of the state layout the fingerprint guards (§3.5; 2: entries are slices and timers). */
    public static final int STATE_FORMAT = 2;

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    static final String TIME = "$time";

    public WindowAggExport {
        fallback = List.copyOf(fallback);
    }

    public boolean accelerated() {
        return descriptor != null;
    }

    /** The state fingerprint, or null when the aggregate stays stock. */
    @SuppressWarnings("unchecked")
    public String fingerprint() {
        return accelerated() ? (String) ((Map<String, Object>) descriptor.get("state")).get("fingerprint") : null;
    }

    /** The descriptor's JSON text, or a {"protocol", "kind", "name", "fallback"} document of the reasons. */
    public String toJson() {
        if (accelerated()) {
            return JsonText.pretty(descriptor);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("phase", phase.text());
        out.put("fallback", fallback.stream().map(FallbackReason::tree).toList());
        return JsonText.pretty(out);
    }

    /** Exports {@code node} under {@code name}, with {@code config} the plan's table configuration. */
    public static WindowAggExport of(String name, WindowAggNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>(WindowAggChecks.windowing(node));
        if (node.needRetraction()) {
            reasons.add(new FallbackReason(WindowAggChecks.AGGREGATES,
                    "the input is not insert-only (the aggregate needs retraction)"));
        }
        for (AggregateCall call : node.aggCalls()) {
            String problem = AggregateFunctions.callProblem(call, node.aggInputType());
            if (problem != null) {
                reasons.add(new FallbackReason(WindowAggChecks.AGGREGATES, problem));
            }
        }
        AggregateInfoList infos = infos(node);
        for (AggregateInfo info : infos.aggInfos()) {
            String problem = AggregateFunctions.functionProblem(info, node.aggInputType());
            if (problem != null) {
                reasons.add(new FallbackReason(WindowAggChecks.AGGREGATES, problem));
            }
        }
        if (infos.distinctInfos().length > 0 && reasons.isEmpty()) {
            reasons.add(new FallbackReason(WindowAggChecks.AGGREGATES, "DISTINCT aggregates stay stock"));
        }
        for (NamedWindowProperty property : node.windowProperties()) {
            if (propertyName(property) == null) {
                reasons.add(new FallbackReason(WindowAggChecks.WINDOW, "window property " + property.getName() + " ("
                        + property.getProperty() + ") is not accelerated"));
            }
        }
        SlicedWindow window = SlicedWindow.of(node.windowing().getWindow(), node.windowing().getTimeAttributeType(),
                config);
        if (window != null) {
            reasons.addAll(WindowAggChecks.zone(window));
            reasons.addAll(WindowAggChecks.emptiness(window, infos));
        }
        reasons.addAll(WindowAggChecks.state(node, infos, config));
        if (!reasons.isEmpty()) {
            return new WindowAggExport(name, node.phase(), null, reasons);
        }
        return new WindowAggExport(name, node.phase(), descriptor(name, node, infos, window), List.of());
    }

    /** As {@code StreamExecWindowAggregate}/{@code StreamExecGlobalWindowAggregate.translateToPlanInternal}. */
    static AggregateInfoList infos(WindowAggNode node) {
        FlinkTypeFactory types = new FlinkTypeFactory(WindowAggExport.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        return AggregateUtil.deriveStreamWindowAggregateInfoList(types, node.aggInputType(),
                JavaScalaConversionUtil.toScala(Arrays.asList(node.aggCalls())), node.needRetraction(),
                node.windowing().getWindow(), true);
    }

    private static Map<String, Object> descriptor(String name, WindowAggNode node, AggregateInfoList infos,
            SlicedWindow window) {
        List<AggregateSpec> aggregates = new ArrayList<>();
        AggregateInfo[] all = infos.aggInfos();
        int countStar = infos.getIndexOfCountStar();
        List<Map<String, Object>> input = inputFields(node, infos);
        List<AggregateSpec> exported = new ArrayList<>();
        int column = 3;
        int field = 0;
        for (int i = 0; i < all.length; i++) {
            // getIndexOfCountStar is an accumulator field index: AVG's two fields move it past i.
            boolean hidden = infos.countStarInserted() && field == countStar;
            field += all[i].externalAccTypes().length;
            AggregateSpec spec = AggregateFunctions.spec(all[i], node.aggInputType(), !hidden);
            aggregates.add(spec);
            // The global phase reads each aggregate's partial accumulator (its fields' columns), in
            // aggregate order after the key, key group and time. The fingerprint keeps the argument
            // columns, so SUM(a) state never restores into SUM(b).
            if (node.phase() == WindowAggPhase.GLOBAL) {
                int fields = all[i].externalAccTypes().length;
                spec = spec.partial(input.subList(column, column + fields).stream()
                        .map(f -> (String) f.get("name")).toList());
                column += fields;
            }
            exported.add(spec);
        }
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.grouping()) {
            keys.add(field(node.inputType().getFieldNames().get(k), node.inputType().getTypeAt(k).asSerializableString()));
        }
        Map<String, Object> windowTree = window.tree();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("phase", node.phase().text());
        out.put("window", windowTree);
        out.put("keys", keys);
        out.put("input", Map.of("fields", input));
        out.put("aggregates", exported.stream().map(AggregateSpec::tree).toList());
        out.put("window_properties", Arrays.stream(node.windowProperties()).map(WindowAggExport::propertyName).toList());
        out.put("output", Map.of("fields", fields(node.outputType())));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        state.put("fingerprint", StateFingerprint.of(node.phase().text(), keys, windowTree, aggregates));
        out.put("state", state);
        return out;
    }

    /**
     * The batch the sidecar gets: the key's bytes, its key group and the time ({@code $time}: the
     * rowtime's millisecond, single phase; the slice end, global phase), then the aggregates'
     * argument and FILTER columns once each (single phase) or the local phase's accumulators (global phase).
     */
    private static List<Map<String, Object>> inputFields(WindowAggNode node, AggregateInfoList infos) {
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH).asSerializableString()));
        out.add(field(KEY_GROUP, new IntType(false).asSerializableString()));
        out.add(field(TIME, new BigIntType(false).asSerializableString()));
        RowType input = node.inputType();
        if (node.phase() == WindowAggPhase.SINGLE) {
            Set<Integer> args = new LinkedHashSet<>();
            for (AggregateInfo info : infos.aggInfos()) {
                Arrays.stream(info.argIndexes()).forEach(args::add);
                if (info.agg().filterArg >= 0) {
                    args.add(info.agg().filterArg);
                }
            }
            for (int i : args) {
                out.add(field(input.getFieldNames().get(i), input.getTypeAt(i).asSerializableString()));
            }
            return out;
        }
        int accs = infos.getAccTypes().length;
        int first = node.grouping().length;
        if (input.getFieldCount() != first + accs + 1) {
            throw new IllegalStateException("the global window aggregate's input " + input + " is not " + first
                    + " keys, " + accs + " accumulators and the slice end");
        }
        for (int i = first; i < first + accs; i++) {
            out.add(field(input.getFieldNames().get(i), input.getTypeAt(i).asSerializableString()));
        }
        return out;
    }

    private static List<Map<String, Object>> fields(RowType type) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (RowType.RowField f : type.getFields()) {
            out.add(field(f.getName(), f.getType().asSerializableString()));
        }
        return out;
    }

    private static Map<String, Object> field(String name, String type) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("type", type);
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
        return null;
    }
}
