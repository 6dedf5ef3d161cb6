package org.flinkaccelerator.planner.stage;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.catalog.UniqueConstraint;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.planner.segment.SegmentFinder;

/**
 * An 'upsert-kafka' sink as an encode stage sees it, read the way Flink's upsert-kafka connector
 * and planner read it: the primary key columns are the message key (what 'key.fields' is for a
 * 'kafka' table), and the sink takes the changelog the planner hands it (inserts, update-afters,
 * deletes; update-befores only when the planner sends them), of which Flink's own Kafka sink
 * writes a DELETE or UPDATE_BEFORE as a tombstone: the key and a null value. What the stage does
 * not reproduce keeps the sink stock ({@link #problems}).
 */
public final class UpsertKafkaSinks {
    static final String BUFFER_FLUSH_MAX_ROWS = "sink.buffer-flush.max-rows";
    static final String BUFFER_FLUSH_INTERVAL = "sink.buffer-flush.interval";

    private UpsertKafkaSinks() {}

    public static boolean is(StreamExecSink sink) {
        return SegmentFinder.isUpsertKafka(sink.getTableSinkSpec().getContextResolvedTable());
    }

    /** The changelog the planner hands the sink (Flink keeps it in a field without a getter). */
    public static ChangelogMode inputChangelogMode(StreamExecSink sink) {
        return (ChangelogMode) read(sink, "inputChangelogMode");
    }

    /** True when the sink's input holds more than inserts. */
    static boolean updating(StreamExecSink sink) {
        return !inputChangelogMode(sink).containsOnly(RowKind.INSERT);
    }

    /**
     * The table's options, for an upsert-kafka table with 'key.fields' set to its primary key
     * columns, in the key's order, as the connector derives the key projection from them.
     */
    static Map<String, String> keyOptions(ContextResolvedTable table) {
        Map<String, String> options = table.getResolvedTable().getOptions();
        if (!SegmentFinder.isUpsertKafka(table)) {
            return options;
        }
        Map<String, String> out = new LinkedHashMap<>(options);
        table.getResolvedSchema().getPrimaryKey().map(UniqueConstraint::getColumns)
                .ifPresent(key -> out.put("key.fields", String.join(";", key)));
        return out;
    }

    /** Why an encode stage cannot write this upsert-kafka sink as stock does (empty: it can). */
    static List<String> problems(StreamExecSink sink) {
        List<String> problems = new ArrayList<>();
        if ((Boolean) read(sink, "upsertMaterialize")) {
            problems.add("the planner puts Flink's SinkUpsertMaterializer in this sink (its input's upsert key is"
                    + " not the primary key); that state is not reproduced, so the sink stays stock");
        }
        Map<String, String> options = sink.getTableSinkSpec().getContextResolvedTable().getResolvedTable().getOptions();
        // Flink's factory accepts both > 0 (the buffer on) or both <= 0 (off), nothing else.
        if (Integer.parseInt(options.getOrDefault(BUFFER_FLUSH_MAX_ROWS, "0").trim()) > 0) {
            problems.add("'" + BUFFER_FLUSH_MAX_ROWS + "' and '" + BUFFER_FLUSH_INTERVAL + "' buffer the rows and keep"
                    + " the last per primary key (Flink's ReducingUpsertSink): not reproduced yet; set them to 0 to"
                    + " accelerate this sink");
        }
        return problems;
    }

    private static Object read(StreamExecSink sink, String name) {
        try {
            Field field = StreamExecSink.class.getDeclaredField(name);
            field.setAccessible(true);
            return field.get(sink);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read " + name + " of Flink's StreamExecSink; this Flink release"
                    + " is not one flink-accelerator supports", e);
        }
    }
}
