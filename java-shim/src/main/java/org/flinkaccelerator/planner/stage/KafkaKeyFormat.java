package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.FlinkVersionSupport;

/**
 * The message key of a Kafka table, read from its options the way Flink's Kafka connector reads
 * them: 'key.format' with its options under the format's own keys ('key.json.x' as 'json.x'),
 * 'key.fields' (table columns, in the key row's order), 'key.fields-prefix' (stripped from the
 * names the key format sees) and whether the value format also carries the key columns
 * ('value.fields-include' = 'ALL', the default) or not ('EXCEPT_KEY').
 */
record KafkaKeyFormat(String format, Map<String, String> options, List<String> fields, String prefix,
        boolean valueIncludesKey) {
    /** The key, or null when the table has no 'key.format' (Flink then reads and writes no key). */
    static KafkaKeyFormat of(Map<String, String> tableOptions) {
        String format = tableOptions.get("key.format");
        if (format == null) {
            return null;
        }
        Map<String, String> options = new TreeMap<>();
        tableOptions.forEach((key, value) -> {
            if (key.startsWith("key." + format + ".")) {
                options.put(key.substring("key.".length()), value);
            }
        });
        String declared = tableOptions.getOrDefault("key.fields", "");
        List<String> fields = declared.isBlank() ? List.of()
                : Arrays.stream(declared.split(";")).map(String::trim).toList();
        return new KafkaKeyFormat(format, options, fields, tableOptions.getOrDefault("key.fields-prefix", ""),
                !"EXCEPT_KEY".equalsIgnoreCase(tableOptions.getOrDefault("value.fields-include", "ALL")));
    }

    /** The row the key format reads and writes: the key columns, named without the prefix. */
    RowType keyRow(RowType physical) {
        List<RowType.RowField> out = new ArrayList<>();
        for (String field : fields) {
            int index = physical.getFieldNames().indexOf(field);
            if (index < 0) {
                throw new IllegalArgumentException("key field '" + field + "' is not a physical column");
            }
            out.add(new RowType.RowField(field.substring(prefix.length()), physical.getTypeAt(index)));
        }
        return new RowType(out);
    }

    /** The row the value format reads and writes: every column, or every column but the key's. */
    RowType valueRow(RowType physical) {
        if (valueIncludesKey) {
            return physical;
        }
        return new RowType(physical.getFields().stream().filter(f -> !fields.contains(f.getName())).toList());
    }

    /**
     * The key as the sidecar decodes it into table columns (from {@code column}), or encodes it from
     * them ({@code column} null), with the options its format's {@link KafkaValueFormat#check} gives
     * the sidecar, on Flink {@code flinkVersion}.
     */
    KeySpec spec(String column, RowType physical, Map<String, String> sidecarOptions, String flinkVersion) {
        boolean dropsUnreadable = column != null && "json".equals(format)
                && FlinkVersionSupport.unreadableJsonKeyDropsRecord(flinkVersion);
        return new KeySpec(new FormatSpec(column, format, sidecarOptions, keyRow(physical).asSerializableString()),
                fields, physical.getFieldNames(), dropsUnreadable);
    }
}
