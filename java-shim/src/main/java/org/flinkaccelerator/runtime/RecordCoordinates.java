package org.flinkaccelerator.runtime;

import java.io.Serializable;
import java.util.Arrays;
import org.apache.flink.table.data.RowData;

/**
 * Where each message of the pending batch came from (topic, partition, offset), so that a batch
 * the sidecar rejects at message i names that Kafka record, as stock Flink's own deserialization
 * failures do. The raw source reads the coordinates as Kafka metadata columns for this purpose
 * alone; they stay in the JVM, in primitive arrays reused from batch to batch.
 */
public final class RecordCoordinates {
    /**
     * Where the raw source's row carries the coordinates, fixed at planning time.
     *
     * @param fixedTopic the table's one topic, or null when its rows carry the topic
     * @param topicField the row field holding the topic, or -1
     * @param partitionField the row field holding the partition, or -1 when not read
     * @param offsetField the row field holding the offset, or -1 when not read
     */
    public record Layout(String fixedTopic, int topicField, int partitionField, int offsetField)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Rows that carry no coordinates (a failure then names the message's place in its batch only). */
        public static final Layout NONE = new Layout(null, -1, -1, -1);
    }

    private final Layout layout;
    private int[] partitions = new int[0];
    private long[] offsets = new long[0];
    private Object[] topics = new Object[0];

    RecordCoordinates(Layout layout) {
        this.layout = layout;
    }

    /** Remembers where message {@code index} of the batch came from. */
    void set(int index, RowData row) {
        if (layout.partitionField() < 0) {
            return;
        }
        if (index >= partitions.length) {
            int size = Math.max(1024, index * 2);
            partitions = Arrays.copyOf(partitions, size);
            offsets = Arrays.copyOf(offsets, size);
            topics = layout.topicField() >= 0 ? Arrays.copyOf(topics, size) : topics;
        }
        partitions[index] = row.getInt(layout.partitionField());
        offsets[index] = row.getLong(layout.offsetField());
        if (layout.topicField() >= 0) {
            topics[index] = row.getString(layout.topicField());
        }
    }

    /** "topic 't', partition p, offset o" of message {@code index}, or "" when rows carry none. */
    String describe(int index) {
        if (layout.partitionField() < 0 || index < 0 || index >= partitions.length) {
            return "";
        }
        Object topic = layout.topicField() >= 0 ? topics[index] : layout.fixedTopic();
        return "topic '" + topic + "', partition " + partitions[index] + ", offset " + offsets[index];
    }
}
