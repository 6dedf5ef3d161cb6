package org.flinkaccelerator.planner.stage;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.source.WatermarkPushDownSpec;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;
import org.apache.flink.table.watermark.WatermarkParams;
import org.flinkaccelerator.planner.substrait.ExpressionConverter;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * A {@code WATERMARK} Flink pushed into a Kafka source scan, as a rows stage reproduces it: the
 * watermark expression (evaluated by the sidecar per message) over the row it reads, and when
 * Flink's source emits the result ({@link WatermarkSpec}). The idle timeout and emission options
 * are read from the spec exactly as {@code WatermarkPushDownSpec#apply} reads them; its fields
 * have no getters, so they are read reflectively, and a Flink whose fields moved keeps the source
 * stock.
 *
 * @param expression the watermark expression, over the scan's row as decoded (its first columns)
 */
record SourceWatermark(RexNode expression, WatermarkSpec spec) {
    /** The descriptor's name of the watermark column of the sidecar's marks. */
    static final String COLUMN = "watermark";

    /**
     * The scan's pushed-down watermark as a rows stage runs it, or null with a reason when it cannot.
     *
     * @param abilities the scan's source abilities, in order (the watermark reads the row the ones before it produce)
     * @param sourceRow the table's physical row, what the first ability reads (as in Flink's {@code DynamicTableSourceSpec})
     * @param decoded the decoded table's columns
     */
    static SourceWatermark of(WatermarkPushDownSpec pushed, List<SourceAbilitySpec> abilities, RowType sourceRow,
            RowType decoded, String where, List<FallbackReason> reasons) {
        WatermarkParams params;
        long idleTimeout;
        try {
            params = (WatermarkParams) PARAMS.get(pushed);
            idleTimeout = (long) IDLE_TIMEOUT.invoke(pushed);
        } catch (ReflectiveOperationException | RuntimeException e) {
            reasons.add(new FallbackReason(where, "the WATERMARK's options cannot be read in this Flink version: " + e));
            return null;
        }
        if (params != null && params.alignWatermarkEnabled()) {
            reasons.add(new FallbackReason(where, "watermark alignment ('scan.watermark.alignment.*') pauses the"
                    + " source's splits by their watermarks; not reproduced yet"));
        }
        RowType reads = sourceRow;
        for (SourceAbilitySpec ability : abilities) {
            if (ability == pushed) {
                break;
            }
            reads = ability.getProducedType().orElse(reads);
        }
        if (!isPrefix(reads, decoded)) {
            reasons.add(new FallbackReason(where, "the WATERMARK reads " + reads.asSummaryString()
                    + ", not the columns the stage decodes (" + decoded.asSummaryString() + ")"));
        }
        LogicalType type = ExpressionConverter.type(pushed.getWatermarkExpr());
        if (!type.is(LogicalTypeFamily.TIMESTAMP)) {
            reasons.add(new FallbackReason(where, "a WATERMARK of type " + type.asSummaryString()));
        }
        if (!reasons.isEmpty()) {
            return null;
        }
        boolean onEvent = params != null && params.getEmitStrategy() != null && params.getEmitStrategy().isOnEvent();
        return new SourceWatermark(pushed.getWatermarkExpr(),
                new WatermarkSpec(onEvent, Duration.ofMillis(Math.max(idleTimeout, 0))));
    }

    /** Whether {@code row}'s columns are the first of {@code decoded}, position by position, time attributes aside. */
    private static boolean isPrefix(RowType row, RowType decoded) {
        if (row.getFieldCount() > decoded.getFieldCount()) {
            return false;
        }
        for (int i = 0; i < row.getFieldCount(); i++) {
            if (!LogicalTypeUtils.removeTimeAttributes(row.getTypeAt(i))
                    .equals(LogicalTypeUtils.removeTimeAttributes(decoded.getTypeAt(i)))) {
                return false;
            }
        }
        return true;
    }

    private static final Field PARAMS = field("watermarkParams");
    private static final Method IDLE_TIMEOUT = method("calculateIdleTimeoutMillis");

    private static Field field(String name) {
        try {
            Field field = WatermarkPushDownSpec.class.getDeclaredField(name);
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static Method method(String name) {
        try {
            Method method = WatermarkPushDownSpec.class.getDeclaredMethod(name);
            method.setAccessible(true);
            return method;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
