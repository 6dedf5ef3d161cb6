package org.flinkaccelerator.runtime.watermarks;

import java.util.Arrays;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.RecordCoordinates;

/**
 * The Kafka split a raw source's row came from, named as Flink's Kafka source names it
 * ({@code <topic>-<partition>}), from the coordinates the row carries. Ids of a table's one topic
 * are made once per partition, not per record.
 */
public final class SplitIds {
    private final RecordCoordinates.Layout layout;
    private String[] byPartition = new String[0];

    public SplitIds(RecordCoordinates.Layout layout) {
        if (layout.partitionField() < 0) {
            throw new IllegalArgumentException("rows without a partition column cannot name their Kafka split");
        }
        this.layout = layout;
    }

    public String of(RowData row) {
        int partition = row.getInt(layout.partitionField());
        if (layout.topicField() >= 0) {
            return row.getString(layout.topicField()).toString() + "-" + partition;
        }
        if (partition >= byPartition.length) {
            byPartition = Arrays.copyOf(byPartition, Math.max(partition + 1, byPartition.length * 2));
        }
        String id = byPartition[partition];
        if (id == null) {
            id = layout.fixedTopic() + "-" + partition;
            byPartition[partition] = id;
        }
        return id;
    }
}
