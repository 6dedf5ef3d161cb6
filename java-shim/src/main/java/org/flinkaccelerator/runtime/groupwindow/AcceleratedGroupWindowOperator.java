package org.flinkaccelerator.runtime.groupwindow;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.metrics.Counter;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.tasks.ProcessingTimeService;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.operators.window.TimeWindow;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.runtime.exchange.BatchInput;
import org.flinkaccelerator.runtime.state.EventTimeSidecarOperator;
import org.flinkaccelerator.runtime.state.TimersOutsideRawState;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * A group window aggregate (event time: TUMBLE, HOP or SESSION; processing time: TUMBLE or HOP)
 * whose accumulators live in the Python sidecar's {@code group_window} stage, while Flink keeps the control flow stock's
 * {@code AggregateWindowOperator} has: the window timers on Flink's timer service, namespaced by
 * Flink's {@link TimeWindow} as stock's are, each at its window's end - 1.
 *
 * <p>Rows go to the sidecar in {@code update} batches, sent when full, before every watermark and
 * barrier and at the end of the input. The sidecar assigns each row as stock's
 * {@code processElement} does at the timer service's watermark (late rows dropped, sessions
 * merged) and answers the timer registrations and deletions stock would make, in its order; the
 * operator makes them, so Flink's timers (and the order in which equal ones fire) are stock's. At
 * a watermark {@code fire} answers every window it fires with its values, and the timer service,
 * advancing, emits each window's row (the key, the aggregate values, the window properties;
 * without a timestamp, as stock's) as its timer fires. A checkpoint writes the sidecar's state per
 * key group into raw keyed state ({@link GroupWindowStateFormat}).
 *
 * <p>Over processing time each row's time is the processing time when it arrives, read where stock's
 * {@code processElement} reads it, and the window timers are processing-time timers. Rows still wait
 * in a batch, but never past a processing-time timer: the operator's processing-time service runs
 * every callback, the timer service's included, after handing the batch over
 * ({@link FlushingProcessingTimeService}), and a batch is handed over at the latest when the first
 * timer its rows make is due. So Flink adds and polls the timers in stock's order. When a timer fires
 * whose window the last {@code fire} did not answer, {@code fire} at the timer's time answers every
 * window due then; no row is late, and watermarks pass through as stock's operator passes them.
 *
 * <p>Behind a batch exchange ({@link GroupWindowSpec#batchedInput}) each record is a run of rows the
 * rows stage already wrote as {@code update} rows ({@code $time} the rowtime's millisecond); it goes
 * to the sidecar as one {@code update} at the timer service's watermark, as the same rows arriving
 * one by one before the next watermark would. Over processing time its rows arrived together, so
 * each gets the processing time at which the record arrives.
 */
public final class AcceleratedGroupWindowOperator
        extends EventTimeSidecarOperator<GroupWindowSpec, GroupWindowCalls, TimeWindow>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Kind KIND = new Kind(GroupWindowSpec.KIND, "group window aggregate", "group window aggregate",
            "windows and accumulators", GroupWindowStateFormat.FORMAT);

    static final String TIMERS = "accelerator-group-window-timers";

    private transient int rowtimeIndex;
    /** Null until first asked (Flink asks for the processing-time service before the state is initialized). */
    private transient Boolean processingTime;
    private transient FlushingProcessingTimeService flushingTime;
    /**
     * The times of the flush callbacks scheduled and not yet run: every buffered row has one at or
     * before the first timer it makes.
     */
    private transient TreeSet<Long> flushesDue;
    private transient long sizeMs;
    private transient long slideMs;
    private transient RowData.FieldGetter[] arguments;
    private transient int keyArity;
    private transient RowDataSerializer keySerializer;
    private transient long batchBytes;

    private transient InternalTimerService<TimeWindow> timerService;
    private transient TimestampedCollector<RowData> collector;
    private transient JoinedRowData outRow;
    private transient RowDataSerializer outCopier;

    /** The answer of the last {@code fire}: its rows looked up by (key bytes, window) as the timers fire. */
    private transient VectorSchemaRoot fired;
    private transient ArrowRowBatch firedValues;
    private transient Map<FiredWindow, Integer> firedRows;
    private transient int firedEmitted;
    private transient long firedAt;

    private transient Counter numLateRecordsDropped;

    /** Reads batch records when the input is a batch exchange's ({@link GroupWindowSpec#batchedInput}); else null. */
    private transient BatchInput batchInput;

    public AcceleratedGroupWindowOperator(GroupWindowSpec spec) {
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

    private boolean processingTime() {
        if (processingTime == null) {
            processingTime = spec.processingTime();
        }
        return processingTime;
    }

    /**
     * For a processing-time window, the operator's processing-time service that hands the buffered
     * rows to the sidecar before every callback; Flink builds the operator's timer service on it.
     */
    @Override
    public ProcessingTimeService getProcessingTimeService() {
        if (!processingTime()) {
            return super.getProcessingTimeService();
        }
        if (flushingTime == null) {
            flushingTime = new FlushingProcessingTimeService(super.getProcessingTimeService(), this::sendBatch);
        }
        return flushingTime;
    }

    @Override
    protected GroupWindowCalls openCalls(SidecarStage stage, long stateBudget) {
        return new GroupWindowCalls(stage, stateBudget);
    }

    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        TimersOutsideRawState.check(getKeyedStateBackend(), name, "accelerator.group-window-aggregate.enabled",
                "the stock group window aggregate", GroupWindowStateException::new);
        rowtimeIndex = spec.rowtimeIndex();
        int[] indexes = spec.argumentIndexes();
        arguments = new RowData.FieldGetter[indexes.length];
        for (int i = 0; i < indexes.length; i++) {
            arguments[i] = FieldGetters.nullChecked(spec.inputType().getTypeAt(indexes[i]), indexes[i]);
        }
        keyArity = spec.keyArity();
        flushesDue = new TreeSet<>();
        JsonNode window = spec.descriptor().path("window");
        sizeMs = window.path("size_ms").asLong();
        slideMs = "hop".equals(window.path("type").asText()) ? window.path("slide_ms").asLong() : sizeMs;
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        collector.eraseTimestamp();
        outRow = new JoinedRowData();
        outCopier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.outputType()) : null;
        timerService = getInternalTimerService(TIMERS, new TimeWindow.Serializer(), this);
        keySerializer = (RowDataSerializer) (TypeSerializer<?>) getKeyedStateBackend().getKeySerializer();
        // As stock's WindowOperator.open.
        numLateRecordsDropped = lateRowsCounter(LATE_ELEMENTS_DROPPED, LATE_ELEMENTS_DROPPED_RATE);
        registerWatermarkLatency(timerService);
        if (spec.batchedInput()) {
            batchInput = batchInput(keyArity);
        }
    }

    @Override
    protected boolean readsBatches(int input) {
        return input == 0 && spec.batchedInput();
    }

    // -- rows ------------------------------------------------------------------------------------

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        if (batchInput != null) {
            batchInput.process(row, this::sendPart);
            return;
        }
        if (row.getRowKind() != RowKind.INSERT) {
            throw new SidecarException(name + ": received a " + row.getRowKind() + " row, but the accelerated group"
                    + " window aggregate takes an insert-only input; run the job with"
                    + " accelerator.group-window-aggregate.enabled: false");
        }
        long time;
        if (processingTime()) {
            time = arrivalTime();
        } else {
            if (row.isNullAt(rowtimeIndex)) {
                throw new NullPointerException("RowTime field should not be null, please convert it to a non-null"
                        + " long value.");
            }
            // As stock's inputRow.getLong(rowtimeIndex): the TIMESTAMP(3) rowtime's epoch millis.
            time = row.getTimestamp(rowtimeIndex, 3).getMillisecond();
        }
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = keyBytes(key);
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        batchRow.setField(2, time);
        for (int i = 0; i < arguments.length; i++) {
            batchRow.setField(GroupWindowSpec.TRANSPORT_COLUMNS + i, arguments[i].getFieldOrNull(row));
        }
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + 16L * (GroupWindowSpec.TRANSPORT_COLUMNS + arguments.length);
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        }
    }

    /**
     * The processing time of a row arriving now, as stock's {@code processElement} reads it; makes
     * sure the batch is handed over by the time the first timer of the row's windows is due.
     */
    private long arrivalTime() {
        long now = processingTimeNow();
        // The first window holding `now` (TUMBLE: its window; HOP: its earliest) ends first; its timer is at end - 1.
        long firstStart = now - sizeMs - Math.floorMod(now - sizeMs, slideMs) + slideMs;
        long due = firstStart + sizeMs - 1;
        Long earlier = flushesDue.floor(due);
        if (earlier == null) {
            flushesDue.add(due);
            // The service hands the batch over before running the callback.
            getProcessingTimeService().registerTimer(due, time -> flushesDue.remove(due));
        }
        return now;
    }

    /** The processing time now, as stock's {@code processElement} reads it; from 1970 on. */
    private long processingTimeNow() {
        long now = timerService.currentProcessingTime();
        if (now < 0) {
            throw new SidecarException(name + ": the processing time is " + now + " ms, before 1970; the accelerated"
                    + " processing-time group window aggregate takes times from 1970 on (set the clock, or run the"
                    + " job with accelerator.group-window-aggregate.enabled: false)");
        }
        return now;
    }

    /** Hands the rows since the last batch to the sidecar ({@code update}) and makes the timer changes it answers. */
    private void sendBatch() throws Exception {
        // Nothing was started when opening failed (a refused restore): nothing is buffered.
        int rows = batchWriter == null ? 0 : batchWriter.rowCount();
        if (rows == 0) {
            return;
        }
        VectorSchemaRoot changes;
        try {
            changes = calls.update(batchWriter.finish(), timerService.currentWatermark());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of " + rows + " rows failed: " + e.getMessage(), e);
        } finally {
            batchWriter.reset();
            batchBytes = 0;
        }
        try (changes) {
            long dropped = GroupWindowCalls.dropped(changes);
            if (dropped > 0) {
                numLateRecordsDropped.inc(dropped);
            }
            applyTimerChanges(changes);
        }
    }

    /**
     * Hands the rows of a batch record to the sidecar as one {@code update}, after any buffered rows,
     * and makes the timer changes it answers. Over processing time every row gets the time the record
     * arrived ({@code $time} comes as zeros). Neither the keys nor the timestamps are read: the
     * answer names each timer's key, and the windows' rows leave without a timestamp.
     */
    private void sendPart(VectorSchemaRoot part, IntFunction<RowData> keys, long[] timestamps, boolean[] hasTimestamp)
            throws Exception {
        sendBatch();
        int rows = part.getRowCount();
        if (rows == 0) {
            return;
        }
        if (processingTime()) {
            // Sent at once: no timer can be due while they wait, so no flush callback is needed.
            long now = processingTimeNow();
            BigIntVector times = (BigIntVector) part.getVector(GroupWindowCalls.TIME);
            for (int i = 0; i < rows; i++) {
                times.set(i, now);
            }
        }
        VectorSchemaRoot changes;
        try {
            changes = calls.update(part, timerService.currentWatermark());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of a batch of " + rows + " rows from the batch exchange failed: "
                    + e.getMessage(), e);
        }
        try (changes) {
            long dropped = GroupWindowCalls.dropped(changes);
            if (dropped > 0) {
                numLateRecordsDropped.inc(dropped);
            }
            applyTimerChanges(changes);
        }
    }

    /** Registers and deletes the timers the sidecar named, in its order, each under its key. */
    private void applyTimerChanges(VectorSchemaRoot changes) throws Exception {
        int count = changes.getRowCount();
        if (count == 0) {
            return;
        }
        VarBinaryVector keys = (VarBinaryVector) column(changes, GroupWindowCalls.KEY);
        TinyIntVector ops = (TinyIntVector) column(changes, GroupWindowCalls.OP);
        BigIntVector starts = (BigIntVector) column(changes, GroupWindowCalls.START);
        BigIntVector ends = (BigIntVector) column(changes, GroupWindowCalls.END);
        BigIntVector times = (BigIntVector) column(changes, GroupWindowCalls.TIMER_TIME);
        Object current = getCurrentKey();
        for (int i = 0; i < count; i++) {
            byte[] bytes = keys.get(i);
            BinaryRowData key = new BinaryRowData(keyArity);
            key.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
            setCurrentKey(key);
            TimeWindow window = TimeWindow.of(starts.get(i), ends.get(i));
            long time = times.get(i);
            if (time != window.maxTimestamp() && time != cleanupTime(window)) {
                throw new SidecarException(name + ": the sidecar answered a timer at " + time + " for window " + window
                        + "; a window's timers are at its end - 1 and at max(0, end - 1)");
            }
            if (ops.get(i) == GroupWindowCalls.REGISTER) {
                if (processingTime()) {
                    timerService.registerProcessingTimeTimer(window, time);
                } else {
                    timerService.registerEventTimeTimer(window, time);
                }
            } else if (ops.get(i) == GroupWindowCalls.DELETE) {
                if (processingTime()) {
                    timerService.deleteProcessingTimeTimer(window, time);
                } else {
                    timerService.deleteEventTimeTimer(window, time);
                }
            } else {
                throw new SidecarException(name + ": the sidecar answered timer change " + ops.get(i) + " for window "
                        + window + "; only " + GroupWindowCalls.REGISTER + " (register) and " + GroupWindowCalls.DELETE
                        + " (delete) exist");
            }
        }
        if (current != null) {
            setCurrentKey(current);
        }
    }

    @Override
    public void endInput() throws Exception {
        sendBatch();
    }

    // -- watermarks and timers -------------------------------------------------------------------

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (processingTime()) {
            // Stock's processing-time operator only forwards it; nothing fires at a watermark.
            advanceTimers(mark);
            return;
        }
        sendBatch();
        if (mark.getTimestamp() > timerService.currentWatermark() && calls.stateEntries() > 0) {
            fire(mark.getTimestamp());
        }
        advanceTimers(mark);
        releaseFired();
    }

    private void fire(long watermark) {
        fired = calls.fire(watermark);
        firedAt = watermark;
        firedRows = new HashMap<>();
        firedEmitted = 0;
        VarBinaryVector keys = (VarBinaryVector) column(fired, GroupWindowCalls.KEY);
        BigIntVector starts = (BigIntVector) column(fired, GroupWindowCalls.START);
        BigIntVector ends = (BigIntVector) column(fired, GroupWindowCalls.END);
        int count = fired.getRowCount();
        for (int i = 0; i < count; i++) {
            firedRows.put(new FiredWindow(ByteBuffer.wrap(keys.get(i)), starts.get(i), ends.get(i)), i);
        }
        List<FieldVector> vectors = fired.getFieldVectors();
        List<FieldVector> values = vectors.subList(3, vectors.size());
        List<Field> fields = new ArrayList<>();
        values.forEach(v -> fields.add(v.getField()));
        firedValues = new ArrowRowBatch(spec.valuesType(), new VectorSchemaRoot(fields, new ArrayList<>(values), count));
    }

    private void releaseFired() {
        if (fired == null) {
            return;
        }
        int rows = fired.getRowCount();
        releaseAnswers();
        if (firedEmitted != rows) {
            throw new SidecarException(name + ": the sidecar fired " + rows + " windows at "
                    + (processingTime() ? "processing time " + firedAt : "watermark " + timerService.currentWatermark())
                    + ", but only " + firedEmitted + " timers fired; its windows and Flink's timers disagree");
        }
    }

    /**
     * Stock's {@code WindowOperator.cleanupTime}: max(0, end - 1), where it registers a second timer
     * for a window ending at or before the epoch. That timer fires nothing (the trigger fires at
     * end - 1 only) and cleans nothing (the window was cleaned when it fired); it is kept because
     * the order in which Flink fires equal timers depends on every timer it holds.
     */
    private static long cleanupTime(TimeWindow window) {
        return Math.max(0, window.maxTimestamp());
    }

    @Override
    public void onEventTime(InternalTimer<RowData, TimeWindow> timer) throws Exception {
        TimeWindow window = timer.getNamespace();
        if (timer.getTimestamp() != window.maxTimestamp()) {
            return; // a cleanup timer at 0 (cleanupTime): stock's trigger does not fire on it
        }
        RowData key = timer.getKey();
        byte[] bytes = keyBytes(key, keySerializer);
        Integer row = firedRows == null ? null
                : firedRows.remove(new FiredWindow(ByteBuffer.wrap(bytes), window.getStart(), window.getEnd()));
        emit(timer, key, bytes, row);
    }

    /**
     * A processing-time window's timer (always at its end - 1: times from 1970 on leave no cleanup
     * timer at 0). Flink fires them in time order, so the first timer of a time whose window the
     * last {@code fire} did not answer asks {@code fire} for every window due at that time, after
     * checking that every window of the last answer was emitted.
     */
    @Override
    public void onProcessingTime(InternalTimer<RowData, TimeWindow> timer) throws Exception {
        TimeWindow window = timer.getNamespace();
        RowData key = timer.getKey();
        byte[] bytes = keyBytes(key, keySerializer);
        FiredWindow fired = new FiredWindow(ByteBuffer.wrap(bytes), window.getStart(), window.getEnd());
        Integer row = firedRows == null ? null : firedRows.remove(fired);
        if (row == null) {
            releaseFired();
            fire(timer.getTimestamp());
            row = firedRows.remove(fired);
        }
        emit(timer, key, bytes, row);
        if (firedRows.isEmpty()) {
            releaseFired();
        }
    }

    /** Emits the fired window's row {@code row} of the last {@code fire} answer (null: the sidecar has none). */
    private void emit(InternalTimer<RowData, TimeWindow> timer, RowData key, byte[] bytes, Integer row) {
        TimeWindow window = timer.getNamespace();
        if (row == null) {
            throw new SidecarException(name + ": window state missing for a timer: window " + window + " of key "
                    + key + " (" + HexFormat.of().formatHex(bytes) + ") fired at " + timer.getTimestamp()
                    + " but the sidecar has no value for it; restore the job from a checkpoint written by this"
                    + " operator, or run it with accelerator.group-window-aggregate.enabled: false");
        }
        firedEmitted++;
        RowData out = outRow.replace(key, firedValues.reusedRow(row));
        out.setRowKind(RowKind.INSERT);
        collector.collect(outCopier == null ? out : outCopier.copy(out));
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
        // did not (a test harness) still gets a snapshot holding every row and its timers.
        sendBatch();
        super.snapshotState(context);
    }

    @Override
    protected void releaseAnswers() {
        if (fired != null) {
            fired.close();
        }
        fired = null;
        firedValues = null;
        firedRows = null;
    }

    /** A fired window: the key's bytes, the window's start and end. */
    private record FiredWindow(ByteBuffer key, long start, long end) {}
}
