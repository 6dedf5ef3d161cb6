package org.flinkaccelerator.planner.replace;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.Column;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.utils.TypeConversions;
import org.flinkaccelerator.planner.segment.SegmentFinder;
import org.flinkaccelerator.planner.stage.WrittenMetadata;

/**
 * A Kafka table as the accelerator reads or writes it: the same table (every connector and
 * client option kept) with the value format switched to {@code raw} and one {@code value BYTES}
 * column, and, when the table has a message key, the key format switched to {@code raw} too and
 * a second column {@code key BYTES}, so Flink's own Kafka source and sink move the message bytes
 * untouched. The twin of an 'upsert-kafka' sink stays 'upsert-kafka', its primary key the
 * {@code key} column: Flink's own sink then writes each DELETE (or UPDATE_BEFORE) row the
 * accelerated operator hands it as a tombstone with that row's key bytes, as it does for the
 * original table.
 */
final class RawValueTables {
    static final String VALUE = "value";
    static final String KEY = "key";
    static final String RAW = "raw";
    static final RowType ROW = RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
            new VarBinaryType(VarBinaryType.MAX_LENGTH)}, new String[] {VALUE});
    static final RowType KEYED_ROW = RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
            new VarBinaryType(VarBinaryType.MAX_LENGTH), new VarBinaryType(VarBinaryType.MAX_LENGTH)},
            new String[] {VALUE, KEY});

    private RawValueTables() {}

    /** True when Flink reads and writes the table's message keys ('key.format' is set). */
    static boolean hasKey(ContextResolvedTable table) {
        return table.getResolvedTable().getOptions().containsKey("key.format");
    }

    /** The row of the raw twin's columns: the value bytes, then the key bytes when it has a key. */
    static RowType row(boolean keyed) {
        return keyed ? KEYED_ROW : ROW;
    }

    /** The row a raw-value source produces: its columns ({@link #row}), then the metadata columns. */
    static RowType withMetadata(boolean keyed, List<RowType.RowField> metadata) {
        List<RowType.RowField> fields = new java.util.ArrayList<>(row(keyed).getFields());
        fields.addAll(metadata);
        return new RowType(fields);
    }

    /** The raw-value twin of a Kafka table whose value format is {@code valueFormat}. */
    static ContextResolvedTable of(ContextResolvedTable table, String valueFormat) {
        return of(table, valueFormat, WrittenMetadata.NONE);
    }

    /**
     * The raw-value twin of a Kafka sink table that also declares the metadata columns the sink
     * writes, each named by its key, so Flink's own sink writes the record timestamp, headers
     * (and topic) from the columns the accelerated stage hands through.
     */
    static ContextResolvedTable of(ContextResolvedTable table, String valueFormat, WrittenMetadata written) {
        ResolvedCatalogTable original = table.getResolvedTable();
        boolean keyed = hasKey(table);
        boolean upsert = SegmentFinder.isUpsertKafka(table);
        List<Column> columns = new java.util.ArrayList<>(List.of(Column.physical(VALUE, DataTypes.BYTES())));
        if (keyed) {
            columns.add(Column.physical(KEY, upsert ? DataTypes.BYTES().notNull() : DataTypes.BYTES()));
        }
        for (RowType.RowField field : written.fields()) {
            columns.add(Column.metadata(field.getName(), TypeConversions.fromLogicalToDataType(field.getType()),
                    field.getName(), false));
        }
        ResolvedSchema schema = upsert
                ? new ResolvedSchema(columns, List.of(), UniqueConstraint.primaryKey("PK_" + KEY, List.of(KEY)))
                : ResolvedSchema.of(columns);
        CatalogTable raw = CatalogTable.newBuilder()
                .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                .comment(original.getComment())
                .options(rawOptions(original.getOptions(), valueFormat, upsert))
                .build();
        return ContextResolvedTable.temporary(table.getIdentifier(), new ResolvedCatalogTable(raw, schema));
    }

    /**
     * The options with the value format set to raw and that format's own options dropped; with a
     * key, the key format too, the key being the twin's {@code key} column alone (an upsert-kafka
     * twin's primary key, which that connector makes the key itself: it takes no 'key.fields').
     */
    static Map<String, String> rawOptions(Map<String, String> options, String valueFormat, boolean upsert) {
        String keyFormat = options.get("key.format");
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            boolean valueFormatOption = key.startsWith(valueFormat + ".") || key.startsWith("value." + valueFormat + ".");
            boolean keyFormatOption = keyFormat != null && key.startsWith("key." + keyFormat + ".");
            if (!valueFormatOption && !keyFormatOption && !key.equals("key.fields-prefix")) {
                out.put(key, value);
            }
        });
        if (keyFormat != null) {
            out.put("key.format", RAW);
            if (!upsert) {
                out.put("key.fields", KEY);
            }
            out.put("value.fields-include", "EXCEPT_KEY");
        }
        if (out.containsKey("value.format")) {
            out.put("value.format", RAW);
        } else {
            out.put("format", RAW);
        }
        return out;
    }
}
