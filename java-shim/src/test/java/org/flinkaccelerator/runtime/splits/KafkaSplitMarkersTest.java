package org.flinkaccelerator.runtime.splits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.kafka.common.TopicPartition;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.junit.jupiter.api.Test;

/** Kafka split markers are raw rows holding the split's partition (and topic) and a negative offset. */
class KafkaSplitMarkersTest {
    /** value, key, topic, partition, offset. */
    private static final RecordCoordinates.Layout TOPICS = new RecordCoordinates.Layout(null, 2, 3, 4);
    /** value, partition, offset, of one topic. */
    private static final RecordCoordinates.Layout ONE_TOPIC = new RecordCoordinates.Layout("t", -1, 1, 2);

    @Test
    void aMarkerHoldsTheTopicAndPartitionOfTheSplitIdWhereTheLayoutSays() {
        KafkaSplitMarkers markers = new KafkaSplitMarkers(TOPICS, 5);
        String splitId = KafkaPartitionSplit.toSplitId(new TopicPartition("my-topic", 3));

        RowData added = markers.added(splitId);

        assertEquals(5, added.getArity());
        assertTrue(added.isNullAt(0));
        assertTrue(added.isNullAt(1));
        assertEquals(StringData.fromString("my-topic"), added.getString(2));
        assertEquals(3, added.getInt(3));
        assertEquals(KafkaSplitMarkers.ADDED, added.getLong(4));
        assertTrue(KafkaSplitMarkers.isMarker(added, TOPICS));
        assertTrue(KafkaSplitMarkers.isAdded(added, TOPICS));

        RowData released = markers.released("my-topic-12");
        assertEquals(StringData.fromString("my-topic"), released.getString(2));
        assertEquals(12, released.getInt(3));
        assertEquals(KafkaSplitMarkers.RELEASED, released.getLong(4));
        assertTrue(KafkaSplitMarkers.isMarker(released, TOPICS));
        assertFalse(KafkaSplitMarkers.isAdded(released, TOPICS));
    }

    @Test
    void rowsOfOneTopicCarryOnlyThePartition() {
        RowData added = new KafkaSplitMarkers(ONE_TOPIC, 3).added("t-0");

        assertTrue(added.isNullAt(0));
        assertEquals(0, added.getInt(1));
        assertEquals(KafkaSplitMarkers.ADDED, added.getLong(2));
    }

    @Test
    void aMessageIsNoMarker() {
        RowData message = GenericRowData.of(new byte[0], 0, 0L);

        assertFalse(KafkaSplitMarkers.isMarker(message, ONE_TOPIC));
    }

    @Test
    void refusesRowsThatCannotCarryMarkersAndIdsThatAreNoKafkaSplits() {
        assertThrows(IllegalArgumentException.class, () -> new KafkaSplitMarkers(RecordCoordinates.Layout.NONE, 1));
        assertThrows(IllegalArgumentException.class, () -> new KafkaSplitMarkers(TOPICS, 4));
        assertThrows(IllegalArgumentException.class, () -> new KafkaSplitMarkers(ONE_TOPIC, 3).added("topic"));
    }
}
