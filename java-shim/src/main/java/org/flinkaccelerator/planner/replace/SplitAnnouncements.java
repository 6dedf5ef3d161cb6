package org.flinkaccelerator.planner.replace;

import java.lang.reflect.Field;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.streaming.api.transformations.SourceTransformation;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.flinkaccelerator.runtime.splits.KafkaSplitMarkers;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingSource;

/**
 * Makes the raw Kafka source of a watermarked rows stage announce its splits in band
 * ({@code runtime.splits}), so the operator after it generates per-split watermarks as Flink's
 * source does. Flink's Kafka table source builds its {@code KafkaSource} inside its own runtime
 * provider; the source is swapped for the announcing wrapper in the translated
 * {@link SourceTransformation}, which keeps everything else of it (name, uid, parallelism,
 * chaining), so checkpoints and savepoints see the same source operator.
 */
final class SplitAnnouncements {
    private static final Field SOURCE = sourceField();

    private SplitAnnouncements() {}

    /** Wraps the source of {@code input}, the raw source's translation, whose rows have {@code arity} fields. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void announce(Transformation<RowData> input, RecordCoordinates.Layout coordinates, int arity) {
        if (!(input instanceof SourceTransformation<?, ?, ?> transformation)) {
            throw new IllegalStateException("the raw Kafka source translated to " + input.getClass().getSimpleName()
                    + ", not a SourceTransformation, so its splits cannot be announced for its watermarks; run this"
                    + " job with 'accelerator.enabled' = 'false'");
        }
        Source<RowData, ?, ?> source = (Source<RowData, ?, ?>) transformation.getSource();
        if (source instanceof SplitAnnouncingSource) {
            return;
        }
        try {
            SOURCE.set(transformation, SplitAnnouncingSource.of((Source) source, new KafkaSplitMarkers(coordinates, arity)));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot wrap the raw Kafka source to announce its splits", e);
        }
    }

    private static Field sourceField() {
        try {
            Field field = SourceTransformation.class.getDeclaredField("source");
            field.setAccessible(true);
            return field;
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException("SourceTransformation has no field 'source' in this Flink version", e);
        }
    }
}
