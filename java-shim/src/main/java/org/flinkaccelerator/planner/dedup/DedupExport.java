package org.flinkaccelerator.planner.dedup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.runtime.typeutils.TypeCheckUtils;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock deduplication ({@code StreamExecDeduplicate}): its
 * descriptor ({@code "kind": "deduplicate"}, docs/design/stateful-deduplicate.md) when the sidecar
 * reproduces the function stock builds for it ({@code ProcTimeDeduplicateKeepFirstRowFunction},
 * {@code ProcTimeDeduplicateKeepLastRowFunction} or, keeping the last row, {@code RowTimeDeduplicateFunction}), otherwise
 * every reason it stays stock.
 */
public record DedupExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "deduplicate";
    /** Version of the state layout: per key, its key group, key bytes and kept row (or nothing). */
    public static final int STATE_FORMAT = 1;

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    static final String INPUT = "input";
    static final String STATE = "state";
    static final String DEDUPLICATE = "deduplicate";
    public DedupExport {
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
    public static DedupExport of(String name, DedupNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED)) {
            reasons.add(new FallbackReason(DEDUPLICATE, "'" + ExecutionConfigOptions.TABLE_EXEC_MINIBATCH_ENABLED.key()
                    + "' is true, so stock Flink runs the mini-batch deduplication, which is not accelerated"));
        }
        long retention = StatefulFields.stateRetentionMillis(node.stateMetadata(), config);
        if (retention > 0) {
            reasons.add(new FallbackReason(STATE, "state TTL ('" + ExecutionConfigOptions.IDLE_STATE_RETENTION.key()
                    + "' or a STATE_TTL hint) is " + retention + " ms; only deduplications without state TTL are"
                    + " accelerated"));
        }
        if (node.isRowtime() && !node.keepLastRow()) {
            reasons.add(new FallbackReason(DEDUPLICATE, "an event-time first row is not accelerated: stock Flink runs"
                    + (node.outputInsertOnly() ? " RowTimeDeduplicateKeepFirstRowFunction (insert-only, each key's"
                            + " first row emitted on a watermark)" : " RowTimeDeduplicateFunction for a plan compiled"
                            + " before insert-only first rows")
                    + "; the event-time last row and both processing-time deduplications are"));
        }
        String asyncState = AsyncStateOption.problem(config, "deduplication");
        if (node.isRowtime() && asyncState != null) {
            reasons.add(new FallbackReason(STATE, asyncState));
        }
        String backend = config.get(StateBackendOptions.STATE_BACKEND);
        if (!node.isRowtime() && node.keepLastRow() && (node.generateUpdateBefore() || generateInsert(config))
                && !"hashmap".equalsIgnoreCase(backend)) {
            reasons.add(new FallbackReason(STATE, "'" + StateBackendOptions.STATE_BACKEND.key() + "' is " + backend
                    + ": stock's processing-time last row then compares a key's new row with a deserialized copy of"
                    + " its kept row, which the accelerated operator reproduces for the hashmap backend only"));
        }
        RowType input = node.inputType();
        for (RowType.RowField field : input.getFields()) {
            if (!StatefulFields.ROW_TYPES.contains(field.getType().getTypeRoot())) {
                reasons.add(new FallbackReason(INPUT, "field '" + field.getName() + "' is "
                        + field.getType().asSummaryString() + "; deduplications keep rows of scalar fields only"));
            }
        }
        if (!reasons.isEmpty()) {
            return new DedupExport(name, null, reasons);
        }
        return new DedupExport(name, descriptor(name, node, config), List.of());
    }

    /** As the deduplicate translator reads it: {@code table.exec.deduplicate.insert-update-after-sensitive-enabled}. */
    static boolean generateInsert(ReadableConfig config) {
        return config.get(ExecutionConfigOptions.TABLE_EXEC_DEDUPLICATE_INSERT_UPDATE_AFTER_SENSITIVE_ENABLED);
    }

    private static Map<String, Object> descriptor(String name, DedupNode node, ReadableConfig config) {
        RowType input = node.inputType();
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.uniqueKeys()) {
            keys.add(StatefulFields.field(input.getFieldNames().get(k), input.getTypeAt(k)));
        }
        List<Map<String, Object>> row = new ArrayList<>();
        for (RowType.RowField f : input.getFields()) {
            row.add(StatefulFields.field(f.getName(), f.getType()));
        }
        List<Map<String, Object>> inputFields = new ArrayList<>();
        inputFields.add(StatefulFields.field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        inputFields.add(StatefulFields.field(KEY_GROUP, new IntType(false)));
        inputFields.addAll(row);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("keys", keys);
        out.put("order", node.isRowtime() ? "rowtime" : "proctime");
        out.put("keep", node.keepLastRow() ? "last" : "first");
        if (node.isRowtime()) {
            // As the translator picks it: the input's first rowtime field.
            int rowtime = -1;
            for (int i = 0; i < input.getFieldCount() && rowtime < 0; i++) {
                rowtime = TypeCheckUtils.isRowTime(input.getTypeAt(i)) ? i : -1;
            }
            out.put("rowtime", input.getFieldNames().get(rowtime));
        }
        out.put("input", Map.of("fields", inputFields));
        out.put("generate_update_before", node.generateUpdateBefore());
        out.put("generate_insert", generateInsert(config));
        out.put("output", Map.of("fields", row));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        state.put("fingerprint", fingerprint(out, keys, row));
        out.put("state", state);
        return out;
    }

    /** The SHA-256 of what decides whether saved state fits the query: the kind, keys, order, kept side and row. */
    static String fingerprint(Map<String, Object> descriptor, List<Map<String, Object>> keys,
            List<Map<String, Object>> row) {
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("kind", KIND);
        state.put("keys", keys);
        state.put("order", descriptor.get("order"));
        state.put("keep", descriptor.get("keep"));
        state.put("row", row);
        return StateFingerprint.sha256(state);
    }
}
