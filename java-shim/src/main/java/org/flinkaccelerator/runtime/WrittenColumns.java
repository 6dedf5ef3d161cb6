package org.flinkaccelerator.runtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;

/**
 * The row an operator that writes Kafka messages emits to its raw twin sink: the descriptor's
 * output fields, value bytes, key bytes (when the sink writes keys), then the Kafka metadata the
 * sink writes ({@code timestamp}, {@code headers}, {@code topic}), which the sidecar hands through
 * from the plan's result in the shared Arrow layout. Flink's own Kafka sink turns those into the
 * record's timestamp, headers and topic, exactly as it would from the stock Calc's row.
 */
final class WrittenColumns {
    /** The descriptor's first output fields, the message bytes; the rest are written metadata. */
    private static final List<String> MESSAGE_FIELDS = List.of(ValueBatch.VALUE, ValueBatch.KEY);

    private WrittenColumns() {}

    /**
     * The descriptor's output fields as the row the operator emits; a descriptor naming none (the
     * sidecar's own test stages) writes the value bytes alone.
     */
    static RowType row(String descriptorJson) {
        JsonNode fields;
        try {
            fields = new ObjectMapper().readTree(descriptorJson).path("output").path("fields");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the stage descriptor is not JSON: " + e.getMessage(), e);
        }
        List<RowType.RowField> out = new ArrayList<>();
        for (JsonNode field : fields) {
            LogicalType type = LogicalTypeParser.parse(field.path("type").asText(), WrittenColumns.class.getClassLoader());
            out.add(new RowType.RowField(field.path("name").asText(), type));
        }
        if (out.isEmpty()) {
            out.add(new RowType.RowField(ValueBatch.VALUE, new VarBinaryType(VarBinaryType.MAX_LENGTH)));
        }
        return new RowType(out);
    }

    /** How many leading fields of {@code row} are message bytes (value, then key). */
    static int messageFields(RowType row) {
        int n = 0;
        while (n < row.getFieldCount() && MESSAGE_FIELDS.contains(row.getFieldNames().get(n))) {
            n++;
        }
        return n;
    }

    /** Reads the written metadata columns of one sidecar answer into the emitted rows. */
    static final class Reader {
        private final RowType metadata;
        private final int first;
        private final RowData.FieldGetter[] getters;

        Reader(RowType written) {
            first = messageFields(written);
            metadata = new RowType(written.getFields().subList(first, written.getFieldCount()));
            getters = new RowData.FieldGetter[metadata.getFieldCount()];
            for (int i = 0; i < getters.length; i++) {
                getters[i] = FieldGetters.nullChecked(metadata.getTypeAt(i), i);
            }
        }

        boolean isEmpty() {
            return getters.length == 0;
        }

        /** A view of the answer's metadata columns; fails naming the columns when they are missing or of another layout. */
        ArrowRowBatch view(VectorSchemaRoot answer) {
            List<FieldVector> vectors = new ArrayList<>();
            for (String name : metadata.getFieldNames()) {
                FieldVector vector = answer.getVector(name);
                if (vector == null) {
                    throw new IllegalArgumentException("no written metadata column '" + name + "' in " + answer.getSchema());
                }
                vectors.add(vector);
            }
            return new ArrowRowBatch(metadata, new VectorSchemaRoot(
                    vectors.stream().map(FieldVector::getField).toList(), vectors, answer.getRowCount()));
        }

        /** Sets {@code out}'s metadata fields from row {@code i} of {@code view}. */
        void copy(ArrowRowBatch view, int i, GenericRowData out) {
            RowData row = view.reusedRow(i);
            for (int f = 0; f < getters.length; f++) {
                out.setField(first + f, getters[f].getFieldOrNull(row));
            }
        }
    }
}
