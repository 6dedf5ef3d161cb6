package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How the sidecar decodes a column of message bytes, or encodes its result rows: Flink's format
 * identifier, the table's options for that format (full keys, as in the DDL) and the row type.
 * {@code column} is null for encoding.
 */
public record FormatSpec(String column, String format, Map<String, String> options, String rowType) {
    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        if (column != null) {
            out.put("column", column);
        }
        out.put("format", format);
        out.put("options", new LinkedHashMap<String, Object>(options));
        out.put("row_type", rowType);
        return out;
    }
}
