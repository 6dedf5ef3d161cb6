package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A message key in a stage descriptor: its format spec, the table columns its row's fields fill
 * (in order) and the order of the table's physical columns (the rows the key and value rows are
 * joined into when decoding, and the plan's result when encoding: accelerator/sidecar/kafka_rows.py).
 * {@code unreadableKeyDropsRecord}, when decoding: the running Flink drops a record whose key the
 * key format cannot read under 'ignore-parse-errors' (1.20's json format), rather than failing on
 * its null key row as 2.x's does ({@link org.flinkaccelerator.FlinkVersionSupport#unreadableJsonKeyDropsRecord}).
 */
public record KeySpec(FormatSpec format, List<String> fields, List<String> columns, boolean unreadableKeyDropsRecord) {
    Map<String, Object> tree() {
        Map<String, Object> out = format.tree();
        out.put("fields", List.copyOf(fields));
        out.put("columns", List.copyOf(columns));
        if (unreadableKeyDropsRecord) {
            out.put("unreadable_key_drops_record", true);
        }
        return new LinkedHashMap<>(out);
    }
}
