package org.flinkaccelerator.planner.replace;

import java.lang.reflect.Field;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.handover.HandedOverRowTypeInfo;

/**
 * Declares the rows an accelerated operator's chained input gives it as handed over uncopied
 * ({@link HandedOverRowTypeInfo}). With object reuse off Flink copies every record between two
 * chained operators so the receiver may keep it; where the receiver reads each row at once and
 * keeps nothing, the copy is one more row per record for nothing:
 * <ul>
 *   <li>a raw Kafka source before a segment or rows stage (the operator copies the message's fields
 *       into its Arrow batch), {@link #rawSource};</li>
 *   <li>the operator before an encode stage, when the encode stage is its only consumer (the stage
 *       writes each row's fields into its Arrow batch in {@code processElement}; the row may be a
 *       view of an accelerated operator's answer, whose copy into a {@code BinaryRowData} cost as
 *       much as the sink's whole encoding), {@link #encodeInput}.</li>
 * </ul>
 * Only the type of the input's translated transformation changes (name, uid, parallelism,
 * chaining all stay), and only what it gives the chained operator: bytes on a network edge are the
 * wrapped serializer's, the same as before.
 */
final class RowsHandover {
    private static final Field OUTPUT_TYPE = outputTypeField();

    private RowsHandover() {}

    /** Hands the rows of {@code input}, the raw source's translation of rows {@code rowType}, over uncopied. */
    static void rawSource(Transformation<RowData> input, RowType rowType) {
        if (input instanceof SourceTransformation<?, ?, ?>) {
            declare(input, rowType, "the raw Kafka source");
        }  // else not the raw source itself (another translation): Flink's copy stays
    }

    /**
     * Hands the rows of {@code input}, the operator an encode stage alone reads, over uncopied. An
     * exchange, union or side output in between keeps Flink's copy (or serialization) as it is.
     */
    static void encodeInput(Transformation<RowData> input, RowType rowType) {
        if (input instanceof OneInputTransformation<?, ?> || input instanceof TwoInputTransformation<?, ?, ?>) {
            declare(input, rowType, "the operator before an encode stage");
        }
    }

    private static void declare(Transformation<RowData> input, RowType rowType, String what) {
        try {
            // The planner has read the type already, which setOutputType refuses afterwards.
            OUTPUT_TYPE.set(input, HandedOverRowTypeInfo.of(rowType));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot declare the rows of " + what + " as handed over", e);
        }
    }

    private static Field outputTypeField() {
        try {
            Field field = Transformation.class.getDeclaredField("outputType");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("Transformation has no field 'outputType' in this Flink version", e);
        }
    }
}
