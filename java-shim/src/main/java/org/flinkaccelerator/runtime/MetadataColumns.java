package org.flinkaccelerator.runtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampNanoTZVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * The Kafka metadata columns (partition, offset, timestamp, ...) an accelerated segment reads,
 * and the message key bytes when it reads keys, as the stage descriptor's input fields after
 * {@code value} name them. Each is copied from the
 * raw source's row (field 1, 2, ... after the value bytes) into an Arrow column of the same name,
 * in the layout the sidecar holds that type in (accelerator/formats/types.py: INT int32, BIGINT
 * int64, STRING utf8, TIMESTAMP_LTZ nanoseconds in UTC).
 */
final class MetadataColumns {
    /** One column: its name, Flink type and Arrow vector. */
    record Column(String name, LogicalType type, FieldVector vector) {}

    private MetadataColumns() {}

    /** The descriptor's input fields after the first (the value bytes, always field 0), in order. */
    static List<String[]> fields(String descriptorJson) {
        JsonNode fields;
        try {
            fields = new ObjectMapper().readTree(descriptorJson).path("input").path("fields");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("the stage descriptor is not JSON: " + e.getMessage(), e);
        }
        List<String[]> out = new ArrayList<>();
        for (int i = 1; i < fields.size(); i++) {
            JsonNode field = fields.get(i);
            out.add(new String[] {field.path("name").asText(), field.path("type").asText()});
        }
        return out;
    }

    /** Vectors for the descriptor's metadata columns; fails for a type this operator cannot carry. */
    static List<Column> create(String descriptorJson, BufferAllocator allocator) {
        List<Column> columns = new ArrayList<>();
        try {
            for (String[] field : fields(descriptorJson)) {
                LogicalType type = LogicalTypeParser.parse(field[1], MetadataColumns.class.getClassLoader());
                columns.add(new Column(field[0], type, vector(field[0], type, allocator)));
            }
        } catch (RuntimeException e) {
            columns.forEach(c -> c.vector().close());
            throw e;
        }
        return columns;
    }

    private static FieldVector vector(String name, LogicalType type, BufferAllocator allocator) {
        FieldVector vector;
        switch (type.getTypeRoot()) {
            case INTEGER:
                vector = new IntVector(name, FieldType.nullable(new ArrowType.Int(32, true)), allocator);
                break;
            case BIGINT:
                vector = new BigIntVector(name, FieldType.nullable(new ArrowType.Int(64, true)), allocator);
                break;
            case CHAR:
            case VARCHAR:
                vector = new VarCharVector(name, FieldType.nullable(ArrowType.Utf8.INSTANCE), allocator);
                break;
            case BINARY:
            case VARBINARY:
                vector = new VarBinaryVector(name, FieldType.nullable(ArrowType.Binary.INSTANCE), allocator);
                break;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                vector = new TimeStampNanoTZVector(name,
                        FieldType.nullable(new ArrowType.Timestamp(TimeUnit.NANOSECOND, "UTC")), allocator);
                break;
            default:
                throw new IllegalArgumentException("Kafka metadata column '" + name + "' of type "
                        + type.asSummaryString() + " cannot be carried to the sidecar");
        }
        vector.allocateNew();
        return vector;
    }

    /** Copies field {@code pos} of {@code row} into row {@code index} of the column. */
    static void set(Column column, int index, RowData row, int pos) {
        FieldVector vector = column.vector();
        if (row.isNullAt(pos)) {
            vector.setNull(index);
            return;
        }
        switch (column.type().getTypeRoot()) {
            case INTEGER:
                ((IntVector) vector).setSafe(index, row.getInt(pos));
                break;
            case BIGINT:
                ((BigIntVector) vector).setSafe(index, row.getLong(pos));
                break;
            case CHAR:
            case VARCHAR:
                ((VarCharVector) vector).setSafe(index, row.getString(pos).toBytes());
                break;
            case BINARY:
            case VARBINARY:
                ((VarBinaryVector) vector).setSafe(index, row.getBinary(pos));
                break;
            default: {
                int precision = LogicalTypeChecks.getPrecision(column.type());
                TimestampData ts = row.getTimestamp(pos, precision);
                ((TimeStampNanoTZVector) vector).setSafe(index,
                        Math.addExact(Math.multiplyExact(ts.getMillisecond(), 1_000_000L), ts.getNanoOfMillisecond()));
            }
        }
    }
}
