package org.flinkaccelerator.runtime.splits;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.flinkaccelerator.runtime.RecordCoordinates;

/**
 * The split markers of a raw Kafka source, rows of the raw row's shape: the split's partition (and
 * topic, when rows carry it) where the layout puts them, a negative offset saying which event it is
 * ({@link #ADDED} or {@link #RELEASED}; Kafka offsets are never negative), every other field null.
 * A Kafka split id is {@code topic-partition} (KafkaPartitionSplit.toSplitId); topics may hold '-',
 * partitions may not.
 */
public final class KafkaSplitMarkers implements SplitAnnouncer<RowData> {
    private static final long serialVersionUID = 1L;

    /** The offset of a marker announcing that the split was added to the reader. */
    public static final long ADDED = -1L;
    /** The offset of a marker announcing that the reader released the split's output. */
    public static final long RELEASED = -2L;

    private final RecordCoordinates.Layout layout;
    private final int arity;

    /**
     * Markers for raw rows of {@code arity} fields laid out as {@code layout}, which must carry the
     * partition and offset.
     */
    public KafkaSplitMarkers(RecordCoordinates.Layout layout, int arity) {
        if (layout.partitionField() < 0 || layout.offsetField() < 0) {
            throw new IllegalArgumentException("rows without partition and offset cannot carry split markers: " + layout);
        }
        if (Math.max(layout.topicField(), Math.max(layout.partitionField(), layout.offsetField())) >= arity) {
            throw new IllegalArgumentException("rows of " + arity + " fields cannot hold " + layout);
        }
        this.layout = layout;
        this.arity = arity;
    }

    @Override
    public RowData added(String splitId) {
        return marker(splitId, ADDED);
    }

    @Override
    public RowData released(String splitId) {
        return marker(splitId, RELEASED);
    }

    private RowData marker(String splitId, long event) {
        int dash = splitId.lastIndexOf('-');
        if (dash < 0) {
            throw new IllegalArgumentException("'" + splitId + "' is not a Kafka split id (topic-partition)");
        }
        GenericRowData row = new GenericRowData(arity);
        row.setField(layout.partitionField(), Integer.parseInt(splitId.substring(dash + 1)));
        if (layout.topicField() >= 0) {
            row.setField(layout.topicField(), StringData.fromString(splitId.substring(0, dash)));
        }
        row.setField(layout.offsetField(), event);
        return row;
    }

    /** Whether {@code row}, a raw row laid out as {@code layout}, is a split marker rather than a message. */
    public static boolean isMarker(RowData row, RecordCoordinates.Layout layout) {
        return row.getLong(layout.offsetField()) < 0;
    }

    /** Whether {@code row}, a split marker, announces an added split (else a released one). */
    public static boolean isAdded(RowData row, RecordCoordinates.Layout layout) {
        return row.getLong(layout.offsetField()) == ADDED;
    }
}
