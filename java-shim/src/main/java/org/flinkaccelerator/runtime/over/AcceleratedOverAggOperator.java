package org.flinkaccelerator.runtime.over;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.runtime.state.EventTimeSidecarOperator;
import org.flinkaccelerator.runtime.state.ForwardedInputRows;
import org.flinkaccelerator.runtime.state.TimersOutsideRawState;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * An event-time OVER aggregate (ROWS or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) whose
 * held rows and accumulators live in the Python sidecar's {@code over_agg} stage, while Flink
 * keeps the control flow stock Flink's {@code RowTimeUnboundedPrecedingOverFunctionV2} (run by a
 * {@code KeyedProcessOperator}) has: a row at or before the timer service's watermark is dropped
 * and counted ({@code numLateRecordsDropped}); any other registers the event-time timer of its
 * (key, timestamp) on Flink's own timer service, as stock registers it for the first row of a
 * timestamp (a second registration changes nothing), and goes to the sidecar. The JVM holds no row.
 *
 * <p>Rows go to the sidecar in {@code update} batches, sent when full, before every watermark and
 * barrier and at the end of the input. At a watermark {@code fire} answers every held row the
 * watermark passes, with its aggregates, and the timer service, advancing, emits each (key,
 * timestamp) timer's rows in its turn, stamped with the timer's timestamp (the rows' own), so
 * records and watermarks leave in stock's order. A checkpoint writes the sidecar's state per key
 * group into raw keyed state ({@link OverAggStateFormat}); the timers are Flink's keyed state.
 */
public final class AcceleratedOverAggOperator
        extends EventTimeSidecarOperator<OverAggSpec, OverAggCalls, VoidNamespace>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Kind KIND = new Kind(OverAggSpec.KIND, "OVER aggregate", "OVER aggregate",
            "held rows and accumulators", OverAggStateFormat.FORMAT);

    static final String TIMERS = "accelerator-over-timers";

    private transient int rowtimeIndex;
    private transient RowData.FieldGetter[] fields;
    private transient RowDataSerializer keySerializer;
    private transient long batchBytes;

    private transient InternalTimerService<VoidNamespace> timerService;
    private transient TimestampedCollector<RowData> collector;
    /** The output rows as stock's JoinedRowData of its input row and aggregate values. */
    private transient ForwardedInputRows outRows;

    /** The answer of the last {@code fire}: its rows looked up by (key bytes, timestamp) as the timers fire. */
    private transient VectorSchemaRoot fired;
    private transient ArrowRowBatch firedRows;
    private transient Map<Group, int[]> firedGroups;
    private transient int firedEmitted;

    private transient Counter numLateRecordsDropped;

    public AcceleratedOverAggOperator(OverAggSpec spec) {
        super(spec);
    }

    /** The rows dropped as late so far (metric numLateRecordsDropped, as stock's). */
    public Counter getNumLateRecordsDropped() {
        return numLateRecordsDropped;
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    @Override
    protected OverAggCalls openCalls(SidecarStage stage, long stateBudget) {
        return new OverAggCalls(stage, stateBudget);
    }

    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        TimersOutsideRawState.check(getKeyedStateBackend(), name, "accelerator.over-aggregate.enabled",
                "the stock OVER aggregate", OverAggStateException::new);
        rowtimeIndex = spec.rowtimeIndex();
        fields = new RowData.FieldGetter[spec.inputType().getFieldCount()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = FieldGetters.nullChecked(spec.inputType().getTypeAt(i), i);
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        outRows = new ForwardedInputRows(spec.outputType(), spec.inputType().getFieldCount(),
                getExecutionConfig().isObjectReuseEnabled());
        timerService = getInternalTimerService(TIMERS, VoidNamespaceSerializer.INSTANCE, this);
        keySerializer = (RowDataSerializer) (TypeSerializer<?>) getKeyedStateBackend().getKeySerializer();
        // As stock's function: the counter alone, without a rate.
        numLateRecordsDropped = metrics.counter(LATE_ELEMENTS_DROPPED);
    }

    // -- rows ------------------------------------------------------------------------------------

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        if (row.getRowKind() != RowKind.INSERT) {
            throw new SidecarException(name + ": received a " + row.getRowKind() + " row, but an OVER aggregate"
                    + " takes an insert-only input; run the job with accelerator.over-aggregate.enabled: false");
        }
        // As stock: the rowtime field read as a long (epoch millis of a TIMESTAMP(3) in a binary row).
        long time = row.getLong(rowtimeIndex);
        if (time <= timerService.currentWatermark()) {
            numLateRecordsDropped.inc();
            return;
        }
        timerService.registerEventTimeTimer(VoidNamespace.INSTANCE, time);
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = keyBytes(key);
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        batchRow.setField(2, time);
        for (int i = 0; i < fields.length; i++) {
            batchRow.setField(OverAggSpec.TRANSPORT_COLUMNS + i, fields[i].getFieldOrNull(row));
        }
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + 16L * (OverAggSpec.TRANSPORT_COLUMNS + fields.length);
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        }
    }

    /** Hands the rows since the last batch to the sidecar ({@code update}). */
    private void sendBatch() {
        // Nothing was started when opening failed (a refused restore): nothing is buffered.
        int rows = batchWriter == null ? 0 : batchWriter.rowCount();
        if (rows == 0) {
            return;
        }
        try {
            calls.update(batchWriter.finish());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of " + rows + " rows failed: " + e.getMessage(), e);
        } finally {
            batchWriter.reset();
            batchBytes = 0;
        }
    }

    @Override
    public void endInput() {
        sendBatch();
    }

    // -- watermarks and timers -------------------------------------------------------------------

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        sendBatch();
        if (mark.getTimestamp() > timerService.currentWatermark() && calls.stateEntries() > 0) {
            fire(mark.getTimestamp());
        }
        advanceTimers(mark);
        releaseFired();
    }

    private void fire(long watermark) {
        fired = calls.fire(watermark);
        firedGroups = new HashMap<>();
        firedEmitted = 0;
        VarBinaryVector keys = (VarBinaryVector) column(fired, OverAggCalls.KEY);
        BigIntVector times = (BigIntVector) column(fired, OverAggCalls.TIME);
        int count = fired.getRowCount();
        for (int start = 0; start < count;) {
            byte[] key = keys.get(start);
            long time = times.get(start);
            int end = start + 1;
            while (end < count && times.get(end) == time && Arrays.equals(keys.get(end), key)) {
                end++;
            }
            if (firedGroups.put(new Group(ByteBuffer.wrap(key), time), new int[] {start, end}) != null) {
                throw new SidecarException(name + ": the sidecar's fire answer holds the rows of key "
                        + HexFormat.of().formatHex(key) + " at " + time + " apart; they must be one run");
            }
            start = end;
        }
        firedRows = valueRows(fired, spec.outputType());
    }

    private void releaseFired() {
        if (fired == null) {
            return;
        }
        int rows = fired.getRowCount();
        int groups = firedGroups.size();
        releaseAnswers();
        if (firedEmitted != rows) {
            throw new SidecarException(name + ": the sidecar released " + rows + " rows in " + groups + " (key,"
                    + " timestamp) groups at watermark " + timerService.currentWatermark() + ", but the timers"
                    + " emitted " + firedEmitted + "; its held rows and Flink's timers disagree");
        }
    }

    @Override
    public void onEventTime(InternalTimer<RowData, VoidNamespace> timer) throws Exception {
        RowData key = timer.getKey();
        byte[] bytes = keyBytes(key, keySerializer);
        int[] range = firedGroups == null ? null : firedGroups.remove(new Group(ByteBuffer.wrap(bytes),
                timer.getTimestamp()));
        if (range == null) {
            throw new SidecarException(name + ": held rows missing for a timer: key " + key + " ("
                    + HexFormat.of().formatHex(bytes) + ") at " + timer.getTimestamp() + " fired at watermark "
                    + timerService.currentWatermark() + " but the sidecar released no row for it; restore the job"
                    + " from a checkpoint written by this operator, or run it with accelerator.over-aggregate.enabled:"
                    + " false");
        }
        // As KeyedProcessOperator: the timer's timestamp on every row it emits.
        collector.setAbsoluteTimestamp(timer.getTimestamp());
        for (int i = range[0]; i < range[1]; i++) {
            collector.collect(outRows.of(firedRows.reusedRow(i)));
        }
        firedEmitted += range[1] - range[0];
    }

    // -- checkpoints -----------------------------------------------------------------------------

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        sendBatch();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        // Flink calls prepareSnapshotPreBarrier first, which left nothing buffered; a caller that
        // did not (a test harness) still gets a snapshot holding every row.
        sendBatch();
        super.snapshotState(context);
    }

    @Override
    protected void releaseAnswers() {
        if (fired != null) {
            fired.close();
        }
        fired = null;
        firedRows = null;
        firedGroups = null;
    }

    /** A fired timer's rows: the key's bytes and the timestamp. */
    private record Group(ByteBuffer key, long time) {}
}
