package org.flinkaccelerator.planner.rank;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.plan.nodes.exec.spec.SortSpec;
import org.apache.flink.table.planner.plan.utils.RankProcessStrategy;
import org.apache.flink.table.runtime.operators.rank.ConstantRankRange;
import org.apache.flink.table.runtime.operators.rank.RankType;
import org.apache.flink.table.runtime.typeutils.TypeCheckUtils;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock Top-N ({@code StreamExecRank}): its descriptor
 * ({@code "kind": "top_n"}, docs/design/stateful-top-n.md) when stock runs
 * {@code AppendOnlyTopNFunction} for it (ROW_NUMBER, insert-only input, a constant rank range from
 * 1 to N above 1) and the sidecar reproduces its sort order, otherwise every reason it stays stock.
 */
public record RankExport(String name, Map<String, Object> descriptor, List<FallbackReason> fallback) {
    public static final String KIND = "top_n";
    /** Version of the state layout: per key, its key group, key bytes and its top rows in order. */
    public static final int STATE_FORMAT = 1;
    /** The largest N accelerated: the sidecar keeps N row slots per key. */
    public static final long MAX_RANK_END = 1000;

    static final String KEY = "$key";
    static final String KEY_GROUP = "$key_group";
    static final String INPUT = "input";
    static final String STATE = "state";
    static final String RANK = "rank";
    /**
     * The sort key types whose order the sidecar reproduces: stock's generated comparator orders
     * them as Arrow does (numbers, strings by their UTF-8 bytes, decimals, dates and times, booleans
     * false first). FLOAT and DOUBLE are left out: that comparator finds NaN equal to every value,
     * so where a NaN row lands depends on the shape of stock's sorted tree.
     */
    static final Set<LogicalTypeRoot> SORT_TYPES = Set.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.DECIMAL, LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT,
            LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.DATE,
            LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    public RankExport {
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
    public static RankExport of(String name, RankNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        if (node.rankType() != RankType.ROW_NUMBER) {
            reasons.add(new FallbackReason(RANK, node.rankType() + " is not accelerated; ROW_NUMBER() is"));
        }
        if (!(node.rankStrategy() instanceof RankProcessStrategy.AppendFastStrategy)) {
            reasons.add(new FallbackReason(RANK, "the input is updating (strategy " + node.rankStrategy()
                    + "), so stock Flink runs a retracting Top-N; only Top-N over an insert-only input is accelerated"));
        }
        if (!(node.rankRange() instanceof ConstantRankRange range)) {
            reasons.add(new FallbackReason(RANK, "the rank range " + node.rankRange() + " is not a constant"
                    + " 'rank <= N'; only a constant range from 1 is accelerated"));
        } else if (range.getRankStart() != 1) {
            reasons.add(new FallbackReason(RANK, "the rank range starts at " + range.getRankStart()
                    + "; only a range from 1 is accelerated"));
        } else if (range.getRankEnd() == 1) {
            reasons.add(new FallbackReason(RANK, "the rank range is 1 to 1, so stock Flink runs FastTop1Function,"
                    + " which is not accelerated; Top-N with N above 1 is"));
        } else if (range.getRankEnd() > MAX_RANK_END) {
            reasons.add(new FallbackReason(RANK, "N is " + range.getRankEnd() + "; Top-N up to N = " + MAX_RANK_END
                    + " is accelerated"));
        }
        RowType input = node.inputType();
        SortSpec sort = node.sortSpec();
        int[] sortFields = sort.getFieldIndices();
        boolean firstN = sortFields.length == 1 && TypeCheckUtils.isProcTime(input.getTypeAt(sortFields[0]))
                && sort.getFieldSpec(0).getIsAscendingOrder();
        if (firstN) {
            reasons.add(new FallbackReason(RANK, "ordered by processing time ascending, stock Flink runs"
                    + " AppendOnlyFirstNFunction, which is not accelerated"));
        }
        for (int f : sortFields) {
            LogicalType type = input.getTypeAt(f);
            if (TypeCheckUtils.isProcTime(type)) {
                if (!firstN) {
                    reasons.add(new FallbackReason(RANK, "sort field '" + input.getFieldNames().get(f) + "' is a"
                            + " processing-time attribute; Top-N ordered by processing time is not accelerated"));
                }
            } else if (!SORT_TYPES.contains(type.getTypeRoot())) {
                reasons.add(new FallbackReason(RANK, "sort field '" + input.getFieldNames().get(f) + "' is "
                        + type.asSummaryString() + "; Top-N is accelerated when ordered by integers, DECIMAL,"
                        + " strings, BOOLEAN, dates, times and timestamps (stock's comparator finds a FLOAT or"
                        + " DOUBLE NaN equal to every value)"));
            }
        }
        String asyncState = AsyncStateOption.problem(config, "Top-N");
        if (asyncState != null) {
            reasons.add(new FallbackReason(STATE, asyncState));
        }
        long retention = StatefulFields.stateRetentionMillis(node.stateMetadata(), config);
        if (retention > 0) {
            reasons.add(new FallbackReason(STATE, "state TTL ('" + ExecutionConfigOptions.IDLE_STATE_RETENTION.key()
                    + "' or a STATE_TTL hint) is " + retention + " ms; only Top-N without state TTL is accelerated"));
        }
        for (RowType.RowField field : input.getFields()) {
            if (!StatefulFields.ROW_TYPES.contains(field.getType().getTypeRoot())) {
                reasons.add(new FallbackReason(INPUT, "field '" + field.getName() + "' is "
                        + field.getType().asSummaryString() + "; Top-N keeps rows of scalar fields only"));
            }
        }
        if (!reasons.isEmpty()) {
            return new RankExport(name, null, reasons);
        }
        return new RankExport(name, descriptor(name, node), List.of());
    }

    private static Map<String, Object> descriptor(String name, RankNode node) {
        RowType input = node.inputType();
        List<Map<String, Object>> keys = new ArrayList<>();
        for (int k : node.partitionSpec().getFieldIndices()) {
            keys.add(StatefulFields.field(input.getFieldNames().get(k), input.getTypeAt(k)));
        }
        List<Map<String, Object>> sort = new ArrayList<>();
        for (SortSpec.SortFieldSpec spec : node.sortSpec().getFieldSpecs()) {
            Map<String, Object> field = StatefulFields.field(input.getFieldNames().get(spec.getFieldIndex()),
                    input.getTypeAt(spec.getFieldIndex()));
            field.put("ascending", spec.getIsAscendingOrder());
            field.put("nulls_last", spec.getNullIsLast());
            sort.add(field);
        }
        List<Map<String, Object>> row = new ArrayList<>();
        for (RowType.RowField f : input.getFields()) {
            row.add(StatefulFields.field(f.getName(), f.getType()));
        }
        List<Map<String, Object>> inputFields = new ArrayList<>();
        inputFields.add(StatefulFields.field(KEY, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        inputFields.add(StatefulFields.field(KEY_GROUP, new IntType(false)));
        inputFields.addAll(row);
        List<Map<String, Object>> output = new ArrayList<>();
        RowType outputType = node.outputType();
        for (RowType.RowField f : outputType.getFields()) {
            output.add(StatefulFields.field(f.getName(), f.getType()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("keys", keys);
        out.put("sort", sort);
        out.put("rank_end", ((ConstantRankRange) node.rankRange()).getRankEnd());
        out.put("output_rank_number", node.outputRankNumber());
        out.put("generate_update_before", node.generateUpdateBefore());
        out.put("input", Map.of("fields", inputFields));
        out.put("output", Map.of("fields", output));
        Map<String, Object> fingerprinted = new LinkedHashMap<>();
        fingerprinted.put("kind", KIND);
        fingerprinted.put("keys", keys);
        fingerprinted.put("sort", sort);
        fingerprinted.put("rank_end", out.get("rank_end"));
        fingerprinted.put("row", row);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        // What decides whether saved state fits the query: the keys, the order, N and the row.
        state.put("fingerprint", StateFingerprint.sha256(fingerprinted));
        out.put("state", state);
        return out;
    }
}
