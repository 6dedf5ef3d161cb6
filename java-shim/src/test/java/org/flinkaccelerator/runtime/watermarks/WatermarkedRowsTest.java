package org.flinkaccelerator.runtime.watermarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.TestProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.flinkaccelerator.runtime.splits.KafkaSplitMarkers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The replay of a batch through Flink's source event-time logic: what a downstream operator sees
 * (rows and watermarks, in order) is what Flink's Kafka source emits for the same messages: the
 * watermark after each message is the minimum over the subtask's splits, a split announced but
 * silent holds it back, a released split stops counting, a message whose rows a filter dropped
 * still moves its split's watermark, and the stream goes idle and active again when Flink's does.
 */
class WatermarkedRowsTest {
    /** value, partition, offset: the raw source's row for a table of topic "t". */
    private static final RecordCoordinates.Layout LAYOUT = new RecordCoordinates.Layout("t", -1, 1, 2);
    private static final KafkaSplitMarkers MARKERS = new KafkaSplitMarkers(LAYOUT, 3);
    /** The default pipeline.auto-watermark-interval, and an idle timeout shorter than it. */
    private static final long IDLE_INTERVAL = 200;
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(100);

    private final BufferAllocator allocator = new RootAllocator();
    private final TestProcessingTimeService time = new TestProcessingTimeService();
    private final List<String> seen = new ArrayList<>();

    @AfterEach
    void close() {
        allocator.close();
    }

    private WatermarkedRows rows(boolean onEvent, long interval) throws Exception {
        return rows(onEvent, interval, Duration.ZERO);
    }

    private WatermarkedRows rows(boolean onEvent, long interval, Duration idleTimeout) throws Exception {
        time.setCurrentTime(0); // the test clock starts at Long.MIN_VALUE
        return new WatermarkedRows(new WatermarkSpec(onEvent, idleTimeout), LAYOUT, new Recording(),
                new UnregisteredMetricsGroup(), time, interval,
                UnregisteredMetricGroups.createUnregisteredTaskMetricGroup().getIOMetricGroup());
    }

    private static RowData message(int partition) {
        return GenericRowData.of(new byte[0], partition, 0L);
    }

    /** Replays messages of the given partitions and watermarks (null: none); rows = the messages that kept a row. */
    private void replay(WatermarkedRows watermarked, int[] partitions, Long[] watermarks, int[] rowsOfMessages) {
        for (int m = 0; m < partitions.length; m++) {
            watermarked.set(m, message(partitions[m]));
        }
        try (VectorSchemaRoot marks = VectorSchemaRoot.of(new BigIntVector(WatermarkedRows.WATERMARK, allocator))) {
            BigIntVector column = (BigIntVector) marks.getVector(0);
            for (int m = 0; m < watermarks.length; m++) {
                if (watermarks[m] == null) {
                    column.setNull(m);
                } else {
                    column.setSafe(m, watermarks[m]);
                }
            }
            marks.setRowCount(watermarks.length);
            Set<Integer> kept = Arrays.stream(rowsOfMessages).boxed().collect(Collectors.toSet());
            watermarked.emit(marks, partitions.length, m -> 1000L + m, (message, record) -> {
                if (kept.contains(message)) {
                    seen.add("row " + message + "@" + record.getTimestamp());
                }
            });
        }
    }

    @Test
    void onEventTheWatermarkFollowsEachMessageAsTheMinimumOverAnnouncedSplits() throws Exception {
        WatermarkedRows watermarked = rows(true, 0);
        watermarked.marker(MARKERS.added("t-0"));
        watermarked.marker(MARKERS.added("t-1"));
        // Split 1 holds the watermark back until it has emitted; message 2 is filtered out but counts.
        replay(watermarked, new int[] {0, 0, 1, 1, 0}, new Long[] {10L, 30L, 20L, null, 40L}, new int[] {0, 1, 3, 4});
        assertEquals(List.of("row 0@1000", "row 1@1001", "watermark 20", "row 3@1003", "row 4@1004"), seen);
        seen.clear();
        // Split 1 finished: only split 0 counts from its next watermark on (Flink merges at the next update).
        watermarked.marker(MARKERS.released("t-1"));
        assertEquals(List.of(), seen);
        replay(watermarked, new int[] {0}, new Long[] {41L}, new int[] {0});
        assertEquals(List.of("row 0@1000", "watermark 41"), seen);
    }

    @Test
    void theMaximumSoFarIsTheSplitsWatermarkAndNeverMovesBack() throws Exception {
        WatermarkedRows watermarked = rows(true, 0);
        watermarked.marker(MARKERS.added("t-0"));
        replay(watermarked, new int[] {0, 0, 0}, new Long[] {50L, 20L, 60L}, new int[] {0, 1, 2});
        assertEquals(List.of("row 0@1000", "watermark 50", "row 1@1001", "row 2@1002", "watermark 60"), seen);
    }

    @Test
    void periodicEmissionHappensOnTheTimerOnly() throws Exception {
        WatermarkedRows watermarked = rows(false, 200);
        watermarked.marker(MARKERS.added("t-0"));
        replay(watermarked, new int[] {0, 0}, new Long[] {50L, 70L}, new int[] {0, 1});
        assertEquals(List.of("row 0@1000", "row 1@1001"), seen);
        time.setCurrentTime(200);
        assertEquals(List.of("row 0@1000", "row 1@1001", "watermark 70"), seen);
        watermarked.end();
        replay(watermarked, new int[] {0}, new Long[] {90L}, new int[] {0});
        time.setCurrentTime(400);
        assertEquals("row 0@1000", seen.get(seen.size() - 1), "no watermark after the final one");
    }

    /** Moves the clock to {@code millis} one watermark interval at a time, as the task's timer would. */
    private void advanceTo(long millis) throws Exception {
        for (long t = time.getCurrentProcessingTime() + IDLE_INTERVAL; t <= millis; t += IDLE_INTERVAL) {
            time.setCurrentTime(t);
        }
    }

    /**
     * Flink's source goes idle once its main output and every split have had nothing for the idle
     * timeout: its split-local output counts as idle until the combined watermark first advances.
     * A split read and released between two periodic emits never advances it, so the source is
     * still idle at end of input, and Flink's chain and network outputs drop the final watermark of
     * an idle output: windows after a bounded source with a short idle timeout may never fire.
     * The rows stage must leave the stream idle there too.
     */
    @Test
    void periodicAndReleasedBetweenTwoEmitsTheSourceStaysIdle() throws Exception {
        WatermarkedRows watermarked = rows(false, IDLE_INTERVAL, IDLE_TIMEOUT);
        watermarked.marker(MARKERS.added("t-0"));
        watermarked.marker(MARKERS.added("t-1"));
        advanceTo(400);
        assertEquals(List.of("status WatermarkStatus(IDLE)"), seen);
        seen.clear();
        replay(watermarked, new int[] {1, 1}, new Long[] {10L, 20L}, new int[] {0, 1});
        watermarked.marker(MARKERS.released("t-0"));
        watermarked.marker(MARKERS.released("t-1"));
        advanceTo(1000);
        assertEquals(List.of("row 0@1000", "row 1@1001"), seen, "no watermark, no ACTIVE: still idle at the end");
    }

    /**
     * With {@code on-event} emission each record of the only split advances the combined watermark
     * at once, which marks the source active again before the watermark: whatever the timing, the
     * stream is active when the split ends, so the final watermark fires every window.
     */
    @Test
    void onEventTheOnlySplitsRecordsMakeTheIdleSourceActiveToItsEnd() throws Exception {
        WatermarkedRows watermarked = rows(true, IDLE_INTERVAL, IDLE_TIMEOUT);
        watermarked.marker(MARKERS.added("t-0"));
        advanceTo(400);
        assertEquals(List.of("status WatermarkStatus(IDLE)"), seen);
        seen.clear();
        replay(watermarked, new int[] {0, 0}, new Long[] {10L, 20L}, new int[] {0, 1});
        watermarked.marker(MARKERS.released("t-0"));
        advanceTo(1000);
        assertEquals(List.of("row 0@1000", "status WatermarkStatus(ACTIVE)", "watermark 10", "row 1@1001",
                "watermark 20"), seen);
    }

    /**
     * {@code on-event} with further, empty splits: while they are announced and not yet idle they
     * hold the combined watermark at its start, so records of the data split read and released in
     * the same fetch as them leave an idle source idle (Flink's Kafka reader finishes empty splits
     * on its first fetch, with whatever data that fetch returns). Whether the empty splits were
     * idle by then is a race between the broker and the idle timeout, in Flink as here.
     */
    @Test
    void onEventEmptySplitsThatAreNotIdleYetKeepTheSourceIdle() throws Exception {
        WatermarkedRows watermarked = rows(true, IDLE_INTERVAL, IDLE_TIMEOUT);
        advanceTo(400);
        assertEquals(List.of("status WatermarkStatus(IDLE)"), seen);
        seen.clear();
        watermarked.marker(MARKERS.added("t-0"));
        watermarked.marker(MARKERS.added("t-1"));
        watermarked.marker(MARKERS.added("t-2"));
        replay(watermarked, new int[] {1, 1}, new Long[] {10L, 20L}, new int[] {0, 1});
        watermarked.marker(MARKERS.released("t-0"));
        watermarked.marker(MARKERS.released("t-1"));
        watermarked.marker(MARKERS.released("t-2"));
        advanceTo(1000);
        assertEquals(List.of("row 0@1000", "row 1@1001"), seen);
    }

    private final class Recording extends OutputOfThisLine<StreamRecord<RowData>> {
        @Override
        public void emitWatermark(Watermark mark) {
            seen.add("watermark " + mark.getTimestamp());
        }

        @Override
        public void emitWatermarkStatus(WatermarkStatus status) {
            seen.add("status " + status);
        }

        @Override
        public <X> void collect(OutputTag<X> tag, StreamRecord<X> record) {
            throw new AssertionError("no side outputs");
        }

        @Override
        public void emitLatencyMarker(LatencyMarker marker) {}

        @Override
        public void emitRecordAttributes(RecordAttributes attributes) {}

        @Override
        public void collect(StreamRecord<RowData> record) {
            throw new AssertionError("rows go through the emitter");
        }

        @Override
        public void close() {}
    }
}
