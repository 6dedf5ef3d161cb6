package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result columns a stage that writes messages checks in each row, as Flink's sink does before
 * it writes the row: {@code notNull}, the NOT NULL columns its not-null enforcer fails on under
 * ERROR ({@link SinkNotNullColumns}; else empty), then {@code rowtime}, the column its timestamp
 * inserter fails on when NULL ({@link SinkRowtimeColumn}; else null).
 */
public record SinkChecks(List<String> notNull, String rowtime) {
    /** A stage that checks nothing (a rows stage, or a sink without either). */
    static final SinkChecks NONE = new SinkChecks(List.of(), null);

    public SinkChecks {
        notNull = List.copyOf(notNull);
    }

    /** Puts the descriptor's {@code "not_null": {"columns": [...]}} and {@code "rowtime": {"column": ...}}, if set. */
    void putInto(Map<String, Object> descriptor) {
        if (!notNull.isEmpty()) {
            Map<String, Object> columns = new LinkedHashMap<>();
            columns.put("columns", notNull);
            descriptor.put("not_null", columns);
        }
        if (rowtime != null) {
            Map<String, Object> column = new LinkedHashMap<>();
            column.put("column", rowtime);
            descriptor.put("rowtime", column);
        }
    }
}
