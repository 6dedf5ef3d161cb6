package org.flinkaccelerator.planner.groupagg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupAggregate;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;
import org.apache.flink.table.planner.utils.JavaScalaConversionUtil;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.windowagg.AggregateFunctions;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.planner.windowagg.StockFields;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock group aggregate ({@code StreamExecGroupAggregate}): its
 * descriptor ({@code "kind": "group_agg"}, docs/design/stateful-group-aggregate.md) when the
 * sidecar reproduces what {@code GroupAggFunction} emits, otherwise every reason it stays stock.
 * The aggregates are derived as the exec node derives them, so the descriptor names the same
 * functions and accumulators the stock operator runs.
 */
public record GroupAggExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "group_agg";
    /**
     * Version of the state layout: per key, its key group, key bytes, accumulators and (from 2) the
     * values its DISTINCT aggregates saw.
     */
    public static final int STATE_FORMAT = 2;

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    /** The input row's RowKind byte, an input column when the input is updating. */
    static final String ROW_KIND = "$kind";
    static final String AGGREGATES = "aggregates";
    static final String STATE = "state";

    public GroupAggExport {
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
    public static GroupAggExport of(String name, GroupAggNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED)) {
            reasons.add(new FallbackReason(AGGREGATES, "'" + ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED.key()
                    + "' is true, so stock Flink runs the mini-batch group aggregate, which is not accelerated"));
        }
        long retention = stateRetentionMillis(node, config);
        if (retention > 0) {
            reasons.add(new FallbackReason(STATE, "state TTL ('" + ExecutionConfigOptions.IDLE_STATE_RETENTION.key()
                    + "' or a STATE_TTL hint) is " + retention + " ms; only group aggregates without state TTL are"
                    + " accelerated"));
        }
        RowType input = node.inputType();
        reasons.addAll(DistinctAggregates.problems(node, config));
        AggregateInfoList infos = infos(node);
        for (AggregateInfo info : infos.aggInfos()) {
            String problem = AggregateFunctions.functionProblem(info, input);
            if (problem != null) {
                reasons.add(new FallbackReason(AGGREGATES, problem));
            }
        }
        String asyncState = AsyncStateOption.problem(config, infos, "aggregate");
        if (reasons.isEmpty() && asyncState != null) {
            reasons.add(new FallbackReason(STATE, asyncState));
        }
        if (!reasons.isEmpty()) {
            return new GroupAggExport(name, null, reasons);
        }
        return new GroupAggExport(name, descriptor(name, node, infos), List.of());
    }

    /**
     * The state retention {@code GroupAggFunction} gets: the node's state metadata (a STATE_TTL hint
     * or the configuration when the node was made), else {@code table.exec.state.ttl}, as
     * {@code StateMetadata.getStateTtlForOneInputOperator} reads them.
     */
    static long stateRetentionMillis(GroupAggNode node, ReadableConfig config) {
        Object metadata;
        try {
            metadata = StockFields.read(node.node(), StreamExecGroupAggregate.class, "stateMetadataList");
        } catch (StockFields.Missing e) {
            metadata = null;
        }
        List<StateMetadata> states = new ArrayList<>();
        if (metadata instanceof List<?> list && !list.isEmpty() && list.get(0) instanceof StateMetadata state) {
            states.add(state);
        }
        return StatefulFields.stateRetentionMillis(states, config);
    }

    /** As {@code StreamExecGroupAggregate.translateToPlanInternal} derives them. */
    static AggregateInfoList infos(GroupAggNode node) {
        FlinkTypeFactory types = new FlinkTypeFactory(GroupAggExport.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        return AggregateUtil.transformToStreamAggregateInfoList(types, node.inputType(),
                JavaScalaConversionUtil.toScala(Arrays.asList(node.aggCalls())), node.aggCallNeedRetractions(),
                node.needRetraction(), true, true);
    }

    private static Map<String, Object> descriptor(String name, GroupAggNode node, AggregateInfoList infos) {
        RowType input = node.inputType();
        List<Map<String, Object>> aggregates = new ArrayList<>();
        AggregateInfo[] all = infos.aggInfos();
        int counter = recordCounter(infos);
        Set<Integer> args = new LinkedHashSet<>();
        for (int i = 0; i < all.length; i++) {
            // The COUNT(*) the derivation inserts to count an updating input's rows is not emitted.
            boolean inserted = infos.countStarInserted() && i == counter;
            Map<String, Object> aggregate = AggregateFunctions.spec(all[i], input, !inserted).tree();
            Arrays.stream(all[i].argIndexes()).forEach(args::add);
            // The derivation makes a DISTINCT call's info a plain call without its FILTER, which it
            // moves into the distinct view (DistinctInfo.filterArgs): both are read from the call.
            AggregateCall call = inserted ? all[i].agg() : node.aggCalls()[i];
            if (call.filterArg >= 0) {
                args.add(call.filterArg);
                aggregate.put("filter", input.getFieldNames().get(call.filterArg));
            }
            if (call.isDistinct()) {
                // Accumulates each value of its group once (stock's distinct view): in the
                // fingerprint too, as its state differs.
                aggregate.put("distinct", true);
            }
            aggregates.add(aggregate);
        }
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.grouping()) {
            keys.add(field(input.getFieldNames().get(k), input.getTypeAt(k).asSerializableString()));
        }
        List<Map<String, Object>> inputFields = new ArrayList<>();
        inputFields.add(field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH).asSerializableString()));
        inputFields.add(field(KEY_GROUP, new IntType(false).asSerializableString()));
        if (node.needRetraction()) {
            inputFields.add(field(ROW_KIND, new TinyIntType(false).asSerializableString()));
        }
        for (int i : args) {
            inputFields.add(field(input.getFieldNames().get(i), input.getTypeAt(i).asSerializableString()));
        }
        List<Map<String, Object>> output = new ArrayList<>();
        for (RowType.RowField f : node.outputType().getFields()) {
            output.add(field(f.getName(), f.getType().asSerializableString()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("keys", keys);
        out.put("input", Map.of("fields", inputFields));
        out.put("aggregates", aggregates);
        if (node.needRetraction()) {
            // GroupAggFunction's RecordCounter: its 0 retracts the key's last row.
            out.put("record_counter", counter);
        }
        out.put("generate_update_before", node.generateUpdateBefore());
        out.put("output", Map.of("fields", output));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        state.put("fingerprint", fingerprint(keys, aggregates));
        out.put("state", state);
        return out;
    }

    /**
     * The SHA-256 of what decides whether saved state fits the query: the kind, the keys (names and
     * types) and each aggregate with its argument, accumulator type and whether it is DISTINCT.
     */
    static String fingerprint(List<Map<String, Object>> keys, List<Map<String, Object>> aggregates) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("kind", KIND);
        state.put("keys", keys);
        state.put("aggregates", aggregates);
        return StateFingerprint.sha256(state);
    }

    /**
     * The aggregate that counts the input's rows (GroupAggFunction's RecordCounter), or -1 over an
     * insert-only input. {@code getIndexOfCountStar} is its accumulator field, not its aggregate.
     */
    private static int recordCounter(AggregateInfoList infos) {
        return infos.indexOfCountStar().isDefined() ? (Integer) infos.indexOfCountStar().get() : -1;
    }

    private static Map<String, Object> field(String name, String type) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("type", type);
        return out;
    }
}
