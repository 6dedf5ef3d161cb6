package org.flinkaccelerator.planner.stage;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.plan.abilities.sink.SinkAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.sink.WritingMetadataSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Kafka metadata a sink writes ({@code timestamp}, {@code headers}, {@code topic} columns
 * declared {@code METADATA}): the keys of the sink's {@link WritingMetadataSpec}, in the order
 * Flink's planner gave them, and each one's type, the last fields of the row the sink consumes.
 * An accelerated stage hands these columns through unchanged, and the raw twin sink declares the
 * same spec, so Flink's own Kafka sink turns them into the record's timestamp, headers and topic.
 */
public record WrittenMetadata(List<String> keys, List<RowType.RowField> fields) {
    public static final WrittenMetadata NONE = new WrittenMetadata(List.of(), List.of());

    /** The sink's written metadata; {@link #NONE} without a {@link WritingMetadataSpec}. */
    public static WrittenMetadata of(StreamExecSink sink) {
        for (SinkAbilitySpec ability : sink.getTableSinkSpec().getSinkAbilities()) {
            if (ability instanceof WritingMetadataSpec) {
                return of((WritingMetadataSpec) ability);
            }
        }
        return NONE;
    }

    /** The spec has no accessors (Flink serializes it as JSON only), so its fields are read directly. */
    @SuppressWarnings("unchecked")
    static WrittenMetadata of(WritingMetadataSpec spec) {
        List<String> keys = (List<String>) read(spec, "metadataKeys");
        RowType consumed = (RowType) read(spec, "consumedType");
        List<RowType.RowField> all = consumed.getFields();
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            RowType.RowField f = all.get(all.size() - keys.size() + i);
            fields.add(new RowType.RowField(keys.get(i), f.getType()));
        }
        return new WrittenMetadata(List.copyOf(keys), fields);
    }

    private static Object read(WritingMetadataSpec spec, String name) {
        try {
            Field field = WritingMetadataSpec.class.getDeclaredField(name);
            field.setAccessible(true);
            return field.get(spec);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + name + " of Flink's WritingMetadataSpec", e);
        }
    }

    public boolean isEmpty() {
        return keys.isEmpty();
    }

    /** The consumed row of a raw twin sink: its columns, then these metadata columns. */
    public RowType after(RowType columns) {
        List<RowType.RowField> out = new ArrayList<>(columns.getFields());
        out.addAll(fields);
        return new RowType(out);
    }

    /** The stage's output fields for them (the sidecar hands them through; runtime.WrittenColumns reads them). */
    List<StageField> stageFields() {
        return fields.stream().map(f -> new StageField(f.getName(), f.getType().asSerializableString())).toList();
    }
}
