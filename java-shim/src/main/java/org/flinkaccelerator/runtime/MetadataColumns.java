package org.flinkaccelerator.runtime;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.runtime.arrow.ArrowFieldWriter;
import org.flinkaccelerator.runtime.arrow.ArrowFieldWriters;
import org.flinkaccelerator.runtime.arrow.LoneSurrogates;
import org.flinkaccelerator.runtime.arrow.ArrowTypes;

/**
 * The Kafka metadata columns (partition, offset, timestamp, ...) an accelerated segment reads,
 * and the message key bytes when it reads keys, as the stage descriptor's input fields after
 * {@code value} name them. Each is copied from the
 * raw source's row (field 1, 2, ... after the value bytes) into an Arrow column of the same name,
 * in the layout the sidecar holds that type in ({@link ArrowTypes}: INT int32, BIGINT int64,
 * STRING utf8, TIMESTAMP_LTZ the (millis, nanos) struct of the instant, {@code headers} a
 * map&lt;utf8, binary&gt;). The row's values are those Flink's own Kafka source made: the headers
 * map is the connector's (one entry per header name, the last of duplicates, in that map's
 * iteration order, NULL values kept), written entry by entry in that order.
 */
final class MetadataColumns {
    /** One column: its name, Flink type, Arrow vector and the writer filling it. */
    record Column(String name, LogicalType type, FieldVector vector, ArrowFieldWriter writer) {}

    /** The types the sidecar reads: all readable Kafka metadata ({@code headers} a MAP), and key bytes. */
    private static final Set<LogicalTypeRoot> CARRIED = EnumSet.of(LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT,
            LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR, LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE, LogicalTypeRoot.MAP);

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
                columns.add(column(field[0], type, allocator));
            }
        } catch (RuntimeException e) {
            columns.forEach(c -> c.vector().close());
            throw e;
        }
        return columns;
    }

    private static Column column(String name, LogicalType type, BufferAllocator allocator) {
        if (!CARRIED.contains(type.getTypeRoot())) {
            throw new IllegalArgumentException("Kafka metadata column '" + name + "' of type "
                    + type.asSummaryString() + " cannot be carried to the sidecar");
        }
        FieldVector vector = ArrowTypes.field(name, type).createVector(allocator);
        vector.allocateNew();
        return new Column(name, type, vector, ArrowFieldWriters.of(type, vector, LoneSurrogates.REFUSED));
    }

    /** Copies field {@code pos} of {@code row} into row {@code index} of the column. */
    static void set(Column column, int index, RowData row, int pos) {
        column.writer().write(index, row, pos);
    }
}
