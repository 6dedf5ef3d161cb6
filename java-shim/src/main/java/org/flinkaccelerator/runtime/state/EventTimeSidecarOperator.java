package org.flinkaccelerator.runtime.state;

import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MeterView;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;

/**
 * A {@link SidecarStateOperator} whose output leaves at Flink's event-time timers (the window
 * aggregate, the OVER aggregate, the group window aggregate, the window join): at an advancing
 * watermark the sidecar fires what the watermark passes, then the timer service, advancing, emits
 * each timer's rows from that answer, looked up by the timer's key bytes. What such operators share
 * lives here: a firing that no barrier interrupts, the fired answer freed whatever the firing
 * threw, the key bytes and value rows of an answer, and the registration of stock's late-row and
 * watermark metrics under the names each operator's stock counterpart uses (the window join counts
 * late rows per input, the others in one counter). (Their backends are checked by
 * {@link TimersOutsideRawState}.)
 *
 * @param <N> the timers' namespace
 */
public abstract class EventTimeSidecarOperator<S extends SidecarStateSpec, C extends SidecarStateCalls, N>
        extends SidecarStateOperator<S, C> implements Triggerable<RowData, N> {
    private static final long serialVersionUID = 1L;

    /** Stock's metric of the rows its one-input window and OVER operators drop as late. */
    public static final String LATE_ELEMENTS_DROPPED = "numLateRecordsDropped";
    /** The per-second rate of {@link #LATE_ELEMENTS_DROPPED}, as stock's window operators register it. */
    public static final String LATE_ELEMENTS_DROPPED_RATE = "lateRecordsDroppedRate";
    /** Stock's window operators' gauge of how far the timers' watermark is behind processing time. */
    public static final String WATERMARK_LATENCY = "watermarkLatency";

    protected EventTimeSidecarOperator(S spec) {
        super(spec);
    }

    /**
     * Timers fire without letting mails (a checkpoint barrier) in between: a snapshot taken while a
     * firing is half done would hold timers whose rows the sidecar already released. (Flink 2 asks
     * this; 1.20 has no interruptible timers and never does.)
     */
    public boolean useInterruptibleTimers() {
        return false;
    }

    /**
     * Registers stock's counter of late rows as {@code name} and its per-second rate as
     * {@code rateName}; a row counted on the counter marks the rate too.
     */
    protected Counter lateRowsCounter(String name, String rateName) {
        Counter counter = metrics.counter(name);
        metrics.meter(rateName, new MeterView(counter));
        return counter;
    }

    /**
     * Registers stock's {@value #WATERMARK_LATENCY} gauge: processing time minus the watermark of
     * {@code timers}, 0 before the first watermark.
     */
    protected void registerWatermarkLatency(InternalTimerService<?> timers) {
        registerWatermarkLatency(timers::currentWatermark);
    }

    /** {@link #registerWatermarkLatency(InternalTimerService)} of an operator that keeps no Flink timers. */
    protected void registerWatermarkLatency(LongSupplier watermarks) {
        metrics.gauge(WATERMARK_LATENCY, () -> {
            long watermark = watermarks.getAsLong();
            return watermark < 0 ? 0L : getProcessingTimeService().getCurrentProcessingTime() - watermark;
        });
    }

    /**
     * Hands {@code mark} on to the timer service, which fires the timers it passes and forwards it;
     * the fired answer is freed when that throws (the firing's own failure is the one reported).
     */
    protected void advanceTimers(Watermark mark) throws Exception {
        try {
            super.processWatermark(mark);
        } catch (Throwable t) {
            releaseAnswers();
            throw t;
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<RowData, N> timer) throws Exception {
        throw new IllegalStateException(name + " registers no processing-time timers");
    }

    /** The bytes of Flink's binary key row, as the sidecar's answers hold keys. */
    protected static byte[] keyBytes(BinaryRowData key) {
        return BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes());
    }

    /** The bytes of a timer's key ({@code serializer} makes a binary row of another one). */
    protected static byte[] keyBytes(RowData key, RowDataSerializer serializer) {
        return keyBytes(key instanceof BinaryRowData binary ? binary : serializer.toBinaryRow(key));
    }

    /** A fire answer's value columns, those after its key and its time, as rows of {@code type}. */
    protected static ArrowRowBatch valueRows(VectorSchemaRoot fired, RowType type) {
        List<FieldVector> vectors = fired.getFieldVectors();
        List<FieldVector> values = vectors.subList(2, vectors.size());
        List<Field> fields = new ArrayList<>();
        values.forEach(v -> fields.add(v.getField()));
        return new ArrowRowBatch(type, new VectorSchemaRoot(fields, new ArrayList<>(values), fired.getRowCount()));
    }
}
