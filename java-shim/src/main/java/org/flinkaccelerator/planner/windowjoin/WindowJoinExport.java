package org.flinkaccelerator.planner.windowjoin;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.logical.CumulativeWindowSpec;
import org.apache.flink.table.planner.plan.logical.HoppingWindowSpec;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowAttachedWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.join.JoinCondition;
import org.flinkaccelerator.planner.join.JoinExport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StatefulFields;
import org.flinkaccelerator.planner.windowagg.StateFingerprint;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one stock window join ({@code StreamExecWindowJoin}): its descriptor
 * ({@code "kind": "window_join"}) when stock runs {@code WindowJoinOperator} (synchronous state) for
 * an INNER, LEFT, RIGHT, FULL, SEMI or ANTI join of two TUMBLE, HOP or CUMULATE window TVF inputs,
 * with a non-equi condition only when the expression registry reproduces it; otherwise every reason
 * it stays stock. The operator itself only reads each row's window end, so the window kind decides
 * nothing at run time; SESSION windows stay stock until a case runs them.
 */
public record WindowJoinExport(String name, Map<String, Object> descriptor, ZoneId shiftTimeZone,
        List<FallbackReason> fallback) {
    public static final String KIND = "window_join";
    /** Version of the state layout: per key group, the held rows in arrival order. */
    public static final int STATE_FORMAT = 1;

    static final String JOIN = "window join";
    static final String WINDOW = "window";
    static final String STATE = "state";

    public WindowJoinExport {
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
    public static WindowJoinExport of(String name, WindowJoinNode node, ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        JoinSpec spec = node.joinSpec();
        Map<String, Object> condition = JoinCondition.sectionOrReason(spec, node.joinedType(), JOIN, reasons);
        windowing(reasons, "left", node.leftWindowing(), node.leftType());
        windowing(reasons, "right", node.rightWindowing(), node.rightType());
        String asyncState = AsyncStateOption.problem(config, "window join");
        if (asyncState != null) {
            reasons.add(new FallbackReason(STATE, asyncState));
        }
        JoinExport.scalarFields(reasons, "left", node.leftType());
        JoinExport.scalarFields(reasons, "right", node.rightType());
        if (node.semiAnti()) {
            leftRowOutput(reasons, spec.getJoinType().name(), node.leftType(), node.outputType());
        }
        // As stock's translateToPlanInternal: the zone a TIMESTAMP_LTZ window's ends are shifted by, else UTC.
        ZoneId zone = TimeWindowUtil.getShiftTimeZone(node.leftWindowing().getTimeAttributeType(),
                TableConfigUtils.getLocalTimeZone(config));
        if (!reasons.isEmpty()) {
            return new WindowJoinExport(name, null, zone, reasons);
        }
        return new WindowJoinExport(name, descriptor(name, node, condition), zone, List.of());
    }

    /** The window end field of {@code windowing} (a window TVF's window_end column). */
    public static int windowEnd(WindowingStrategy windowing) {
        return ((WindowAttachedWindowingStrategy) windowing).getWindowEnd();
    }

    private static void windowing(List<FallbackReason> reasons, String side, WindowingStrategy windowing,
            RowType type) {
        if (!(windowing instanceof WindowAttachedWindowingStrategy) || !windowing.isRowtime()) {
            reasons.add(new FallbackReason(WINDOW, "the " + side + " input's windowing is "
                    + windowing.getClass().getSimpleName() + "; event-time window TVF inputs are accelerated"));
            return;
        }
        if (!(windowing.getWindow() instanceof TumblingWindowSpec || windowing.getWindow() instanceof HoppingWindowSpec
                || windowing.getWindow() instanceof CumulativeWindowSpec)) {
            reasons.add(new FallbackReason(WINDOW, "the " + side + " input's window is "
                    + windowing.getWindow().getClass().getSimpleName() + "; window joins of TUMBLE, HOP and CUMULATE"
                    + " windows are accelerated"));
        }
    }

    /**
     * Adds a reason unless a SEMI or ANTI join's {@code output} row is its {@code left} input's, names,
     * types and nullability included: the sidecar emits the held left rows as they are (and refuses a
     * descriptor whose output differs, naming it only when the job starts).
     */
    static void leftRowOutput(List<FallbackReason> reasons, String joinType, RowType left, RowType output) {
        if (!JoinExport.rowFields(output).equals(JoinExport.rowFields(left))) {
            reasons.add(new FallbackReason(JOIN, "the " + joinType + " join's output row " + output.asSummaryString()
                    + " is not its left input's row " + left.asSummaryString() + "; an accelerated " + joinType
                    + " window join emits the left input's rows as they are"));
        }
    }

    /** @param condition the non-equi condition's section ({@link JoinCondition}), null for none */
    private static Map<String, Object> descriptor(String name, WindowJoinNode node, Map<String, Object> condition) {
        JoinSpec spec = node.joinSpec();
        RowType left = node.leftType();
        RowType right = node.rightType();
        List<Map<String, Object>> input = new ArrayList<>();
        input.add(StatefulFields.field("$key", new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        input.add(StatefulFields.field("$key_group", new IntType(false)));
        input.add(StatefulFields.field("$side", new TinyIntType(false)));
        input.add(StatefulFields.field("$window_end", new BigIntType(false)));
        input.add(StatefulFields.field("$trigger", new BigIntType(false)));
        List<Map<String, Object>> joined = new ArrayList<>();
        for (RowType.RowField f : node.joinedType().getFields()) {
            input.add(StatefulFields.field(f.getName(), f.getType().copy(true)));
            joined.add(StatefulFields.field(f.getName(), f.getType()));
        }
        List<Map<String, Object>> keys = JoinExport.keys(spec, left, right);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", KIND);
        out.put("name", name);
        out.put("join_type", spec.getJoinType().name());
        out.put("keys", keys);
        out.put("left_arity", left.getFieldCount());
        out.put("left_window_end", windowEnd(node.leftWindowing()));
        out.put("right_window_end", windowEnd(node.rightWindowing()));
        if (condition != null) {
            out.put("condition", condition);
        }
        out.put("input", Map.of("fields", input));
        if (node.semiAnti()) {
            // What the condition reads; a SEMI or ANTI join outputs the left row only.
            out.put("joined", Map.of("fields", joined));
        }
        out.put("output", Map.of("fields", JoinExport.rowFields(node.outputType())));
        Map<String, Object> fingerprinted = new LinkedHashMap<>();
        fingerprinted.put("kind", KIND);
        fingerprinted.put("join_type", out.get("join_type"));
        fingerprinted.put("keys", keys);
        fingerprinted.put("left", JoinExport.rowFields(left));
        fingerprinted.put("right", JoinExport.rowFields(right));
        fingerprinted.put("left_window_end", out.get("left_window_end"));
        fingerprinted.put("right_window_end", out.get("right_window_end"));
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("format", STATE_FORMAT);
        // What decides whether saved state fits the query: the join type, the keys, both inputs' rows and window ends.
        state.put("fingerprint", StateFingerprint.sha256(fingerprinted));
        out.put("state", state);
        return out;
    }
}
