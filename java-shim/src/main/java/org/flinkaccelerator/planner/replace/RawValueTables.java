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
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;

/**
 * A Kafka table as the accelerator reads or writes it: the same table (every connector and
 * client option kept) with the value format switched to {@code raw} and one {@code value BYTES}
 * column, so Flink's own Kafka source and sink move the message bytes untouched.
 */
final class RawValueTables {
    static final String VALUE = "value";
    static final String RAW = "raw";
    static final RowType ROW = RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
            new VarBinaryType(VarBinaryType.MAX_LENGTH)}, new String[] {VALUE});

    private RawValueTables() {}

    /** The row a raw-value source produces: the value bytes, then the given metadata columns. */
    static RowType withMetadata(List<RowType.RowField> metadata) {
        List<RowType.RowField> fields = new java.util.ArrayList<>(ROW.getFields());
        fields.addAll(metadata);
        return new RowType(fields);
    }

    /** The raw-value twin of a Kafka table whose value format is {@code valueFormat}. */
    static ContextResolvedTable of(ContextResolvedTable table, String valueFormat) {
        ResolvedCatalogTable original = table.getResolvedTable();
        ResolvedSchema schema = ResolvedSchema.of(List.of(Column.physical(VALUE, DataTypes.BYTES())));
        CatalogTable raw = CatalogTable.newBuilder()
                .schema(Schema.newBuilder().fromResolvedSchema(schema).build())
                .comment(original.getComment())
                .options(rawOptions(original.getOptions(), valueFormat))
                .build();
        return ContextResolvedTable.temporary(table.getIdentifier(), new ResolvedCatalogTable(raw, schema));
    }

    /** The options with the value format set to raw and that format's own options dropped. */
    static Map<String, String> rawOptions(Map<String, String> options, String valueFormat) {
        Map<String, String> out = new LinkedHashMap<>();
        options.forEach((key, value) -> {
            if (!key.startsWith(valueFormat + ".") && !key.startsWith("value." + valueFormat + ".")) {
                out.put(key, value);
            }
        });
        if (out.containsKey("value.format")) {
            out.put("value.format", RAW);
        } else {
            out.put("format", RAW);
        }
        return out;
    }
}
