package org.flinkaccelerator.planner.replace;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.flinkaccelerator.runtime.RecordCoordinates;

/**
 * The Kafka metadata a raw source reads so the accelerated operator can name the record behind a
 * failure: partition and offset always, the topic only when the table reads more than one topic
 * (a list or a pattern). A key the query reads already is not read twice.
 */
final class CoordinateColumns {
    static final String TOPIC = "topic";
    static final String PARTITION = "partition";
    static final String OFFSET = "offset";

    private CoordinateColumns() {}

    /**
     * Appends the coordinate keys the source does not read yet to {@code keys} and their fields to
     * {@code fields} (both in the raw source row's order, its metadata starting at field
     * {@code firstMetadataField}), and says where the row carries them.
     */
    static RecordCoordinates.Layout add(ContextResolvedTable table, int firstMetadataField, List<String> keys,
            List<RowType.RowField> fields) {
        Map<String, String> options = table.getResolvedTable().getOptions();
        String topics = options.get("topic");
        String fixedTopic = topics != null && !topics.contains(";") && !options.containsKey("topic-pattern")
                ? topics.trim() : null;
        int topic = fixedTopic == null
                ? firstMetadataField + field(TOPIC, new VarCharType(false, VarCharType.MAX_LENGTH), keys, fields) : -1;
        int partition = firstMetadataField + field(PARTITION, new IntType(false), keys, fields);
        int offset = firstMetadataField + field(OFFSET, new BigIntType(false), keys, fields);
        return new RecordCoordinates.Layout(fixedTopic, topic, partition, offset);
    }

    /** The index of metadata {@code key} among the metadata columns, which the raw row holds after its own. */
    private static int field(String key, LogicalType type, List<String> keys, List<RowType.RowField> fields) {
        int index = keys.indexOf(key);
        if (index < 0) {
            keys.add(key);
            fields.add(new RowType.RowField(key, type));
            index = keys.size() - 1;
        }
        return index;
    }
}
