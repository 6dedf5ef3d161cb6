package org.flinkaccelerator.runtime.watermarks;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.groups.TaskIOMetricGroup;
import org.apache.flink.streaming.api.operators.source.TimestampsAndWatermarks;
import org.apache.flink.streaming.api.operators.util.PausableRelativeClock;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;

/**
 * The event-time logic of Flink's {@code SourceOperator}, run by a rows stage's operator for the
 * Kafka source it replaces: Flink's own {@link TimestampsAndWatermarks} (one watermark generator
 * per split, the combined watermark the minimum over the splits that are not idle, periodic
 * emission, idleness on the input-activity clock), fed with one event per message in the order
 * the source read them. An event is the message's watermark value, computed by the sidecar.
 *
 * <p>Splits are announced by the raw source in band ({@code runtime.splits}): a split's output
 * exists from the moment the source was given the split, so, as in Flink, a split that has not
 * emitted a record yet holds the combined watermark back, and one that finished stops counting.
 * Every record reaches {@code output} through {@code emitRecord}, followed by whatever watermark
 * it caused: the caller emits the message's rows there.
 */
public final class SplitEventTime {
    private final TimestampsAndWatermarks<Long> logic;
    private final ReaderOutput<Long> mainOutput;
    private final Map<String, SourceOutput<Long>> splits = new HashMap<>();

    /**
     * @param output receives each event as a record, then the watermarks and idleness it causes
     * @param autoWatermarkInterval {@code pipeline.auto-watermark-interval} in ms (0: no periodic emission)
     */
    public SplitEventTime(WatermarkSpec spec, PushingAsyncDataInput.DataOutput<Long> output, MetricGroup metrics,
            ProcessingTimeService time, long autoWatermarkInterval, TaskIOMetricGroup taskMetrics) {
        WatermarkStrategy<Long> strategy = WatermarkStrategy.forGenerator(context -> new PrecomputedWatermarks(spec.onEvent()));
        if (!spec.idleTimeout().isZero()) {
            strategy = strategy.withIdleness(spec.idleTimeout());
        }
        // As SourceOperator.open: idleness is measured on a clock that stops while the task is back-pressured.
        PausableRelativeClock inputActivity = new PausableRelativeClock(time.getClock());
        taskMetrics.registerBackPressureListener(inputActivity);
        logic = TimestampsAndWatermarks.createProgressiveEventTimeLogic(strategy, metrics, time, autoWatermarkInterval,
                inputActivity, time.getClock(), taskMetrics);
        mainOutput = logic.createMainOutput(output, new IgnoredUpdates());
        logic.startPeriodicWatermarkEmits();
    }

    /** The source was given split {@code splitId}. */
    public void added(String splitId) {
        splits.computeIfAbsent(splitId, mainOutput::createOutputForSplit);
    }

    /** The source read split {@code splitId} to its end. */
    public void released(String splitId) {
        splits.remove(splitId);
        mainOutput.releaseOutputForSplit(splitId);
    }

    /** One message of split {@code splitId}, with its watermark value (null: none) and record timestamp. */
    public void event(String splitId, Long watermark, long timestamp) {
        SourceOutput<Long> split = splits.get(splitId);
        if (split == null) {
            // Not announced (cannot happen with the raw source): Flink's reader creates the output on first use too.
            added(splitId);
            split = splits.get(splitId);
        }
        split.collect(watermark, timestamp);
    }

    /** Stops periodic emission (end of input, close). */
    public void stop() {
        logic.stopPeriodicWatermarkEmits();
    }

    /** Watermark alignment is not reproduced (such sources stay stock), so nothing listens. */
    private static final class IgnoredUpdates implements TimestampsAndWatermarks.WatermarkUpdateListener {
        @Override
        public void updateIdle(boolean isIdle) {}

        @Override
        public void updateCurrentEffectiveWatermark(long watermark) {}

        @Override
        public void updateCurrentSplitWatermark(String splitId, long watermark) {}

        /** Flink 2's listener only (1.20's has no per-split idleness). */
        public void updateCurrentSplitIdle(String splitId, boolean idle) {}

        @Override
        public void splitFinished(String splitId) {}
    }
}
