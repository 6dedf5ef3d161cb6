package org.flinkaccelerator.planner.join;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.util.TimeUtils;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock regular join ({@code StreamExecJoin}): its descriptor
 * ({@code "kind": "join"}, docs/design/stateful-joins.md) when stock runs
 * {@code StreamingJoinOperator} for an INNER, LEFT, RIGHT or FULL join, or {@code StreamingSemiAntiJoinOperator}
 * for a SEMI or ANTI join, of two insert-only inputs without unique keys on
 * the hashmap or the RocksDB backend, whose output orders the sidecar reproduces, with a non-equi
 * condition only when the expression registry reproduces it ({@link JoinCondition}); otherwise
 * every reason it stays stock.
 */
public record JoinExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "join";
    /**
     * Version of the state layout: per key group, each side's distinct rows with their counts,
     * numbers of associations (an outer side's) and binary form, each key's rows in its hashmap
     * backend iteration order; from 4 without the rows' fields, which the operator reads back from
     * the binary form at a restore ({@code JoinStateFormat}).
     */
    public static final int STATE_FORMAT = 4;
    /** The {@code state.backend.type}s whose order of a key's rows the sidecar reproduces. */
    static final List<String> BACKENDS = List.of("hashmap", "rocksdb");

    static final String JOIN = "join";
    static final String INPUT = "input";
    static final String STATE = "state";

    public JoinExport {
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
    public static JoinExport of(String name, JoinNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        JoinSpec spec = node.joinSpec();
        Map<String, Object> condition = JoinCondition.sectionOrReason(spec, node.joinedType(), JOIN, reasons);
        if (node.leftInsertOnly() != null) {
            reasons.add(new FallbackReason(INPUT, "the left input may carry updates: " + node.leftInsertOnly()
                    + "; only joins of insert-only inputs are accelerated"));
        }
        if (node.rightInsertOnly() != null) {
            reasons.add(new FallbackReason(INPUT, "the right input may carry updates: " + node.rightInsertOnly()
                    + "; only joins of insert-only inputs are accelerated"));
        }
        uniqueKeys(reasons, "left", node.leftType(), node.leftUpsertKeys());
        uniqueKeys(reasons, "right", node.rightType(), node.rightUpsertKeys());
        // Stock runs StreamingSemiAntiJoinOperator for a SEMI or ANTI join whatever these options say.
        if (!node.semiAnti() && config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED)) {
            reasons.add(new FallbackReason(JOIN, "'" + ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED.key()
                    + "' is true, so stock Flink runs MiniBatchStreamingJoinOperator, which folds each bundle's rows"
                    + " before joining; it is not accelerated"));
        }
        String asyncState = node.semiAnti() ? null : AsyncStateOption.problem(config, "join");
        if (asyncState != null) {
            reasons.add(new FallbackReason(STATE, asyncState));
        }
        long retention = stateRetentionMillis(node.stateMetadata(), config);
        if (retention > 0) {
            reasons.add(new FallbackReason(STATE, "state TTL ('" + ExecutionConfigOptions.IDLE_STATE_RETENTION.key()
                    + "' or a STATE_TTL hint) is " + retention + " ms; only joins without state TTL are accelerated"));
        }
        String backend = backend(config);
        if (!BACKENDS.contains(backend)) {
            reasons.add(new FallbackReason(STATE, "'" + StateBackendOptions.STATE_BACKEND.key() + "' is "
                    + config.get(StateBackendOptions.STATE_BACKEND) + ": stock's order of a key's joined rows is the"
                    + " state backend's, reproduced for " + BACKENDS + " only"));
        }
        scalarFields(reasons, "left", node.leftType());
        scalarFields(reasons, "right", node.rightType());
        if (!reasons.isEmpty()) {
            return new JoinExport(name, null, reasons);
        }
        return new JoinExport(name, descriptor(name, node, backend, condition), List.of());
    }

    /** The job's {@code state.backend.type} (default hashmap), lower case. */
    static String backend(ReadableConfig config) {
        return config.get(StateBackendOptions.STATE_BACKEND).toLowerCase(Locale.ROOT);
    }

    /**
     * The state retention of each input as {@code StateMetadata.getStateTtlForMultiInputOperator}
     * reads it (the node's state metadata, else {@code table.exec.state.ttl}): the largest of them.
     */
    static long stateRetentionMillis(List<StateMetadata> metadata, ReadableConfig config) {
        if (metadata.isEmpty()) {
            return StatefulFields.stateRetentionMillis(metadata, config);
        }
        return metadata.stream().mapToLong(m -> TimeUtils.parseDuration(m.getStateTtl()).toMillis()).max().orElse(0);
    }

    private static void uniqueKeys(List<FallbackReason> reasons, String side, RowType type, List<int[]> keys) {
        if (!keys.isEmpty()) {
            List<List<String>> named = keys.stream()
                    .map(k -> Arrays.stream(k).mapToObj(type.getFieldNames()::get).toList()).toList();
            reasons.add(new FallbackReason(INPUT, "the " + side + " input has unique keys " + named + ", so stock"
                    + " keeps one row per unique key; joins of inputs without unique keys are accelerated"));
        }
    }

    /** Adds a reason for each field of the {@code side} input that is not of a type the stateful stages keep. */
    public static void scalarFields(List<FallbackReason> reasons, String side, RowType type) {
        for (RowType.RowField field : type.getFields()) {
            if (!StatefulFields.ROW_TYPES.contains(field.getType().getTypeRoot())) {
                reasons.add(new FallbackReason(INPUT, "the " + side + " input's field '" + field.getName() + "' is "
                        + field.getType().asSummaryString() + "; joins keep rows of scalar fields only"));
            }
        }
    }

    /** @param condition the non-equi condition's section ({@link JoinCondition}), null for an equi-join */
    private static Map<String, Object> descriptor(String name, JoinNode node, String backend,
            Map<String, Object> condition) {
        JoinSpec spec = node.joinSpec();
        RowType left = node.leftType();
        RowType right = node.rightType();
        List<Map<String, Object>> input = new ArrayList<>();
        input.add(StatefulFields.field("$key", new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        input.add(StatefulFields.field("$key_group", new IntType(false)));
        input.add(StatefulFields.field("$side", new TinyIntType(false)));
        input.add(StatefulFields.field("$order", new VarBinaryType(false, VarBinaryType.MAX_LENGTH)));
        List<Map<String, Object>> output = new ArrayList<>();
        List<Map<String, Object>> joined = new ArrayList<>();
        for (RowType.RowField f : node.joinedType().getFields()) {
            input.add(StatefulFields.field(f.getName(), f.getType().copy(true)));
            joined.add(StatefulFields.field(f.getName(), f.getType()));
        }
        for (RowType.RowField f : node.outputType().getFields()) {
            output.add(StatefulFields.field(f.getName(), f.getType()));
        }
        List<Map<String, Object>> keys = keys(spec, left, right);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("join_type", spec.getJoinType().name());
        out.put("keys", keys);
        out.put("left_arity", left.getFieldCount());
        if (spec.getJoinType().isLeftOuter() || spec.getJoinType().isRightOuter()) {
            // The order of an outer join's -D and +I rows for one input row: the Flink line's (JoinLine).
            out.put("retractions_before_joins", JoinLine.RETRACTIONS_BEFORE_JOINS);
        }
        if (condition != null) {
            out.put("condition", condition);
        }
        out.put("input", Map.of("fields", input));
        if (node.semiAnti()) {
            // What the condition reads and the state keeps; a SEMI or ANTI join outputs the left row only.
            out.put("joined", Map.of("fields", joined));
        }
        out.put("output", Map.of("fields", output));
        Map<String, Object> fingerprinted = new LinkedHashMap<>();
        fingerprinted.put("kind", KIND);
        fingerprinted.put("join_type", out.get("join_type"));
        fingerprinted.put("keys", keys);
        fingerprinted.put("left", rowFields(left));
        fingerprinted.put("right", rowFields(right));
        // Each key's rows are written in the backend's order, which a restore on another backend would not give.
        fingerprinted.put("backend", backend);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        // What decides whether saved state fits the query: the join type, the keys, both inputs' rows, the backend.
        state.put("fingerprint", StateFingerprint.sha256(fingerprinted));
        state.put("backend", backend);
        out.put("state", state);
        return out;
    }

    /**
     * The descriptor's {@code keys}: per key field, its field in each input, its position in each
     * input's row (an outer side's row with a NULL key is null-padded) and whether a NULL there
     * joins nothing ({@code =}, not {@code IS NOT DISTINCT FROM}).
     */
    public static List<Map<String, Object>> keys(JoinSpec spec, RowType left, RowType right) {
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k = 0; k < spec.getJoinKeySize(); k++) {
            Map<String, Object> key = new LinkedHashMap<>();
            key.put("left", StatefulFields.field(left.getFieldNames().get(spec.getLeftKeys()[k]),
                    left.getTypeAt(spec.getLeftKeys()[k])));
            key.put("right", StatefulFields.field(right.getFieldNames().get(spec.getRightKeys()[k]),
                    right.getTypeAt(spec.getRightKeys()[k])));
            // Where each key field is in its input's row: an outer side's row with a NULL key is null-padded.
            key.put("left_index", spec.getLeftKeys()[k]);
            key.put("right_index", spec.getRightKeys()[k]);
            key.put("filter_nulls", spec.getFilterNulls()[k]);
            keys.add(key);
        }
        return keys;
    }

    /** A row's fields as the descriptor lists them. */
    public static List<Map<String, Object>> rowFields(RowType row) {
        return row.getFields().stream().map(f -> StatefulFields.field(f.getName(), f.getType())).toList();
    }
}
