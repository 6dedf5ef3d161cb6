package org.flinkaccelerator.planner.replace;

import java.lang.reflect.Field;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.handover.HandedOverRowTypeInfo;

/**
 * Declares the rows of an accelerated operator's raw Kafka source as handed over uncopied
 * ({@link HandedOverRowTypeInfo}): Flink's Kafka source makes a new row (and value array) for every
 * message and the operator only copies its fields into its Arrow batch, so the copy Flink makes
 * between the two chained operators when object reuse is off is one more row and array per message
 * for nothing. Only the type of the translated {@link SourceTransformation} changes (name, uid,
 * parallelism, chaining, source all stay), and only what it gives the chained operator: bytes on
 * a network edge are the same.
 */
final class RawSourceHandover {
    private static final Field OUTPUT_TYPE = outputTypeField();

    private RawSourceHandover() {}

    /** Hands the rows of {@code input}, the raw source's translation of rows {@code rowType}, over uncopied. */
    static void handOver(Transformation<RowData> input, RowType rowType) {
        if (!(input instanceof SourceTransformation<?, ?, ?>)) {
            return;  // not the raw source itself (another translation): Flink's copy stays
        }
        try {
            // The planner has read the type already, which setOutputType refuses afterwards.
            OUTPUT_TYPE.set(input, HandedOverRowTypeInfo.of(rowType));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot declare the raw Kafka source's rows as handed over", e);
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
