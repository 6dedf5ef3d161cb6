package org.flinkaccelerator.runtime.watermarks;

import java.util.Arrays;
import java.util.function.IntToLongFunction;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskIOMetricGroup;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.flinkaccelerator.runtime.splits.KafkaSplitMarkers;

/**
 * The watermark side of a rows stage that replaces a watermarked Kafka source. It remembers the
 * split of each message of the pending batch, and turns the split markers the raw source emits
 * into split outputs of {@link SplitEventTime}. When a batch comes back it replays the batch's
 * messages through that logic in the order the source read them, each with the watermark value
 * the sidecar computed for it ({@value #WATERMARK} of the answer's marks): each message's rows are
 * emitted where Flink's source emits the message's record, then whatever watermark it causes,
 * so a row is late downstream exactly when it is late in stock Flink.
 */
public final class WatermarkedRows {
    /** The marks column holding each message's watermark value in epoch milliseconds (null: none). */
    public static final String WATERMARK = "watermark";

    /** Emits the result rows of message {@code message} of the batch as records stamped like {@code record}. */
    @FunctionalInterface
    public interface MessageRows {
        void emit(int message, StreamRecord<?> record);
    }

    private final RecordCoordinates.Layout layout;
    private final SplitIds splitIds;
    private final Output<StreamRecord<RowData>> output;
    private final SplitEventTime eventTime;
    private String[] messageSplits = new String[0];
    /** After the final watermark, nothing more is emitted (Flink's source stops there too). */
    private boolean ended;
    private MessageRows rows;
    private int message;

    /**
     * @param layout where the raw source's rows (and markers) carry their Kafka coordinates
     * @param output the operator's output, for watermarks and watermark status
     * @param autoWatermarkInterval {@code pipeline.auto-watermark-interval} in ms
     */
    private Runnable beforeEvents = () -> {};

    public WatermarkedRows(WatermarkSpec spec, RecordCoordinates.Layout layout, Output<StreamRecord<RowData>> output,
            MetricGroup metrics, ProcessingTimeService time, long autoWatermarkInterval, TaskIOMetricGroup taskMetrics) {
        this.layout = layout;
        this.splitIds = new SplitIds(layout);
        this.output = output;
        this.eventTime = new SplitEventTime(spec, new Events(), metrics, time, autoWatermarkInterval, taskMetrics);
    }

    /** Whether {@code row} of the raw source is a split marker rather than a message. */
    public boolean isMarker(RowData row) {
        return KafkaSplitMarkers.isMarker(row, layout);
    }

    /** Applies a split marker; the caller has emitted every message read before it. */
    public void marker(RowData row) {
        String split = splitIds.of(row);
        if (KafkaSplitMarkers.isAdded(row, layout)) {
            eventTime.added(split);
        } else {
            eventTime.released(split);
        }
    }

    /** Remembers the split of message {@code index} of the pending batch. */
    public void set(int index, RowData row) {
        if (index >= messageSplits.length) {
            messageSplits = Arrays.copyOf(messageSplits, Math.max(1024, index * 2));
        }
        messageSplits[index] = splitIds.of(row);
    }

    /**
     * Replays the {@code messages} messages of the batch: each message's result rows go out
     * through {@code emitter} at the message's turn, where Flink's source emits its record.
     *
     * @param timestamps each message's record timestamp, or {@link TimestampAssigner#NO_TIMESTAMP}
     * @throws IllegalArgumentException when the answer's marks are not the contract's
     */
    public void emit(VectorSchemaRoot marks, int messages, IntToLongFunction timestamps, MessageRows emitter) {
        if (marks.getRowCount() != messages || !(marks.getVector(WATERMARK) instanceof BigIntVector)) {
            throw new IllegalArgumentException("the marks " + marks.getSchema() + " with " + marks.getRowCount()
                    + " rows are not an int64 '" + WATERMARK + "' per message of a batch of " + messages);
        }
        BigIntVector watermarks = (BigIntVector) marks.getVector(WATERMARK);
        rows = emitter;
        try {
            for (message = 0; message < messages; message++) {
                Long watermark = watermarks.isNull(message) ? null : watermarks.get(message);
                eventTime.event(messageSplits[message], watermark, timestamps.applyAsLong(message));
            }
        } finally {
            rows = null;
        }
    }

    /**
     * Runs {@code action} before a watermark, a status change or record attributes leave: a batch
     * exchange sends the rows of the messages replayed so far first.
     */
    public void beforeEvents(Runnable action) {
        beforeEvents = action;
    }

    /** The source's final watermark (end of input) went out: no watermark of this logic may follow it. */
    public void end() {
        ended = true;
        eventTime.stop();
    }

    /** Where Flink's source logic sends each message's record and the watermarks it makes. */
    private final class Events extends WatermarkEventForwarding<Long> {
        @Override
        public void emitRecord(StreamRecord<Long> record) {
            if (rows != null) {
                rows.emit(message, record);
            }
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            beforeEvents.run();
            if (!ended) {
                output.emitWatermark(watermark);
            }
        }

        @Override
        public void emitWatermarkStatus(WatermarkStatus status) {
            beforeEvents.run();
            if (!ended) {
                output.emitWatermarkStatus(status);
            }
        }

        @Override
        public void emitLatencyMarker(LatencyMarker marker) {
            output.emitLatencyMarker(marker);
        }

        @Override
        public void emitRecordAttributes(RecordAttributes attributes) {
            beforeEvents.run();
            output.emitRecordAttributes(attributes);
        }

        @Override
        Output<?> output() {
            return output;
        }

        @Override
        boolean ended() {
            return ended;
        }
    }
}
