package org.flinkaccelerator.runtime.windowagg;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.runtime.exchange.BatchInput;
import org.flinkaccelerator.runtime.state.EventTimeSidecarOperator;
import org.flinkaccelerator.runtime.state.FiredKey;
import org.flinkaccelerator.runtime.state.TimersOutsideRawState;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An event-time TUMBLE, HOP or CUMULATE window aggregate whose state and values live in the Python
 * sidecar's {@code window_agg} stage, while Flink keeps the control flow stock Flink's
 * {@code WindowAggOperator} has (docs/design/stateful-window-aggregate.md §3): the same late
 * rule and buffer flush points ({@link StockFlushModel}), and one event-time timer per (key,
 * window), registered in the order stock registers them, whose firing order is the order results
 * leave in, so records and watermarks leave in stock's order.
 *
 * <p>Rows go to the sidecar in {@code update} batches, sent before every watermark and barrier.
 * Where the timers are is chosen before the state is restored ({@link WindowTimerQueue}): in the
 * stage's own queue, which fires in the order of the keyed backend's timer service (the heap
 * backend's, or RocksDB's timers'), or, for any other backend, on Flink's timer service. With the
 * stage's queue, the stage registers every timer stock registers (at {@code update}, {@code flush}
 * and while firing), {@code fire} answers every window the watermark fires in its timers' firing
 * order, and the operator emits them so, each as {@code JoinedRowData(key, values)} without a
 * timestamp, then forwards the watermark. On Flink's timer service, {@code flush} answers the
 * (key, window) pairs new since the last flush in first-occurrence order and the operator registers
 * their timers, and the timer service, advancing, emits each fired window in its timer's turn. A
 * checkpoint flushes the same way before the barrier and writes the sidecar's state per key group
 * into raw keyed state ({@link WindowAggStateFormat}), the stage's timers with it (in the order the
 * backend writes its own, so a restore at any parallelism rebuilds the queue Flink's would); the
 * queue they were written from is named in operator state ({@link WindowTimerQueue#STATE}).
 *
 * <p>Behind a batch exchange ({@link WindowAggSpec#batchedInput}) each record is a run of rows the
 * rows stage already wrote as {@code update} rows ({@code $time} the rowtime's millisecond, or the
 * local phase's slice end); it goes to the sidecar as one {@code update} at the current progress, as
 * the same rows arriving one by one before the next watermark would, and the operator takes from
 * the answer what it would have read of each row: the late rows, what the flush model's buffer
 * holds ({@link StockFlushModel#accepted}) and, on Flink's timer service, the timers registered on
 * arrival, in row order.
 */
public final class AcceleratedWindowAggOperator extends EventTimeSidecarOperator<WindowAggSpec, WindowAggCalls, Long>
        implements OneInputStreamOperator<RowData, RowData> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(AcceleratedWindowAggOperator.class);
    private static final Kind KIND = new Kind("window_agg", "window aggregate", "window", "window entries",
            WindowAggStateFormat.FORMAT);

    static final String TIMERS = "accelerator-window-timers";

    private transient boolean global;
    private transient int keyArity;
    private transient int timePrecision;
    private transient RowData.FieldGetter[] arguments;
    private transient int[] argumentIndexes;
    private transient RowType valuesType;
    private transient RowDataSerializer keySerializer;

    private transient StockFlushModel model;

    private transient long batchDropped;
    private transient long batchBytes;

    /** Where the timers are; {@link #timerService} exists only for {@link WindowTimerQueue#FLINK}. */
    private transient WindowTimerQueue timerQueue;
    private transient ListState<String> timerQueueState;
    private transient InternalTimerService<Long> timerService;
    /** The key of the row being emitted from the stage's queue's firing order (each points at its answer's bytes). */
    private transient BinaryRowData firedKey;
    private transient TimestampedCollector<RowData> collector;
    private transient JoinedRowData outRow;
    private transient RowDataSerializer outCopier;

    /** The answer of the last {@code fire}: looked up by (key bytes, window end) as the timers fire. */
    private transient VectorSchemaRoot fired;
    private transient ArrowRowBatch firedValues;
    private transient Map<FiredKey, Integer> firedRows;
    private transient int firedEmitted;
    /** Timers of the current firing that may find no row: windows the sidecar removed as empty (COUNT(*) 0). */
    private transient long firedEmpty;

    private transient ListState<Long> watermarkState;

    private transient Counter numLateRecordsDropped;

    /** Reads batch records when the input is a batch exchange's ({@link WindowAggSpec#batchedInput}); else null. */
    private transient BatchInput batchInput;

    /** Keeps the timers on Flink's timer service whatever the backend (tests of that path). */
    private boolean flinkTimers;

    public AcceleratedWindowAggOperator(WindowAggSpec spec) {
        super(spec);
    }

    /**
     * This operator with its timers on Flink's timer service on any backend, as on a backend whose
     * timer order the sidecar does not reproduce: for tests of that path on the heap backend.
     */
    AcceleratedWindowAggOperator onFlinkTimers() {
        flinkTimers = true;
        return this;
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
    protected WindowAggCalls openCalls(SidecarStage stage, long stateBudget) {
        return new WindowAggCalls(stage, stateBudget);
    }

    @Override
    protected void initializeOwnState(StateInitializationContext context) throws Exception {
        readSpec();
        // Flink would write heap timers on RocksDB into raw keyed state, which holds this operator's state.
        TimersOutsideRawState.check(getKeyedStateBackend(), name, "accelerator.window-aggregate.enabled",
                "the stock window aggregate", WindowAggStateException::new);
        watermarkState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>("watermark", LongSerializer.INSTANCE));
        timerQueueState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(WindowTimerQueue.STATE, StringSerializer.INSTANCE));
        WindowTimerQueue.Choice choice = flinkTimers
                ? new WindowTimerQueue.Choice(WindowTimerQueue.FLINK, "the operator was built to keep Flink's timers")
                : WindowTimerQueue.choose(getKeyedStateBackend(), context.isRestored() ? restoredTimerQueue() : null);
        timerQueue = choice.queue();
        LOG.info("{} (subtask {}): event-time timers {}, because {}", name,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), timerQueue == WindowTimerQueue.FLINK
                        ? "on Flink's timer service" : "in the sidecar's " + timerQueue.id + " timer queue",
                choice.reason());
        if (context.isRestored()) {
            // As stock: the smallest watermark any subtask had (the union list holds all of them).
            long min = Long.MAX_VALUE;
            for (Long watermark : watermarkState.get()) {
                min = Math.min(min, watermark);
            }
            if (min != Long.MAX_VALUE) {
                currentWatermark = min;
            }
        }
    }

    /** The queue the restored checkpoint's timers were written from: the same in every subtask's entry. */
    private WindowTimerQueue restoredTimerQueue() throws Exception {
        WindowTimerQueue restored = null;
        for (String id : timerQueueState.get()) {
            WindowTimerQueue queue = WindowTimerQueue.of(id);
            if (restored != null && restored != queue) {
                throw new WindowAggStateException("the accelerated window state's subtasks kept their timers in"
                        + " different queues (" + restored.id + ", " + queue.id + "); start the job without state",
                        null);
            }
            restored = queue;
        }
        // A checkpoint without the entry was written when the timers were always Flink's.
        return restored == null ? WindowTimerQueue.FLINK : restored;
    }

    @Override
    protected void stageOpened(WindowAggCalls calls, KeyGroupRange keyGroups) {
        calls.timers(timerQueue.id, keyGroups.getStartKeyGroup(), keyGroups.getEndKeyGroup());
    }

    private void readSpec() {
        global = WindowAggSpec.GLOBAL.equals(spec.phase());
        keyArity = spec.keyArity();
        valuesType = spec.valuesType();
        keySerializer = new RowDataSerializer(spec.keyType());
        LogicalType timeType = spec.inputType().getTypeAt(spec.timeIndex());
        timePrecision = global ? 0 : LogicalTypeChecks.getPrecision(timeType);
        argumentIndexes = spec.argumentIndexes();
        arguments = new RowData.FieldGetter[argumentIndexes.length];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = FieldGetters.nullChecked(spec.inputType().getTypeAt(argumentIndexes[i]), argumentIndexes[i]);
        }
        model = new StockFlushModel(spec.sizeMillis(), spec.slideMillis(), spec.offsetMillis(), spec.zone(),
                spec.cumulative());
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        collector.eraseTimestamp();
        outRow = new JoinedRowData();
        outCopier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.outputType()) : null;
        model.initialize(currentWatermark);
        // As stock's WindowAggOperator.open.
        numLateRecordsDropped = lateRowsCounter(LATE_ELEMENTS_DROPPED, LATE_ELEMENTS_DROPPED_RATE);
        if (timerQueue == WindowTimerQueue.FLINK) {
            timerService = getInternalTimerService(TIMERS, LongSerializer.INSTANCE, this);
            // As stock's open: the timer service starts at the restored watermark, so a flush after a
            // restore registers no timer for a slice already fired before it.
            TimerServiceStart.at(timerService, currentWatermark);
            registerWatermarkLatency(timerService);
        } else {
            firedKey = new BinaryRowData(keyArity);
            registerWatermarkLatency(() -> currentWatermark);
        }
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
        if (row.isNullAt(spec.timeIndex())) {
            throw new NullPointerException("RowTime field should not be null, please convert it to a non-null long"
                    + " value.");
        }
        long time = global ? row.getLong(spec.timeIndex())
                : row.getTimestamp(spec.timeIndex(), timePrecision).getMillisecond();
        long sliceEnd = global ? time : model.sliceEnd(time);
        if (!model.accept(sliceEnd)) {
            // Late: dropped by the sidecar too, which counts it (checked when the batch is sent).
            numLateRecordsDropped.inc();
            batchDropped++;
        } else {
            long window = timerService == null ? Long.MIN_VALUE : model.windowToRegisterOnArrival(sliceEnd);
            if (window != Long.MIN_VALUE) {
                // As stock: a row whose slice fired before its last window did gets that window's timer at
                // once (the stage's queue gets it when the row reaches the stage).
                timerService.registerEventTimeTimer(window, model.triggerTime(window));
            }
        }
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = keyBytes(key);
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        batchRow.setField(2, time);
        for (int i = 0; i < arguments.length; i++) {
            batchRow.setField(3 + i, arguments[i].getFieldOrNull(row));
        }
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + 16L * (3 + arguments.length);
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        }
    }

    /** Sends the rows since the last batch to the sidecar ({@code update}) at the current progress. */
    private void sendBatch() {
        if (batchWriter.rowCount() == 0) {
            return;
        }
        int rows = batchWriter.rowCount();
        long dropped;
        try {
            dropped = calls.update(batchWriter.finish(), model.currentProgress());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of " + rows + " rows failed: " + e.getMessage(), e);
        } finally {
            batchWriter.reset();
            batchBytes = 0;
        }
        if (dropped != batchDropped) {
            throw new SidecarException(name + ": the sidecar dropped " + dropped + " of " + rows + " rows as late where"
                    + " stock Flink drops " + batchDropped + "; its window rules disagree with Flink's");
        }
        batchDropped = 0;
    }

    /**
     * Hands the rows of a batch record to the sidecar as one {@code update}, after any buffered rows,
     * and takes from its answer what the per-row path reads of each row: the late rows, the rows the
     * flush model's buffer now holds and, on Flink's timer service, the timers stock registers as the
     * rows arrive (under each row's key, in row order). The windows' rows leave without a timestamp,
     * so the rows' timestamps are not read.
     */
    private void sendPart(VectorSchemaRoot part, IntFunction<RowData> keys, long[] timestamps, boolean[] hasTimestamp)
            throws Exception {
        sendBatch();
        int rows = part.getRowCount();
        if (rows == 0) {
            return;
        }
        VectorSchemaRoot answer;
        try {
            answer = calls.updateAnswer(part, model.currentProgress());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of a batch of " + rows + " rows from the batch exchange failed: "
                    + e.getMessage(), e);
        }
        try (answer) {
            numLateRecordsDropped.inc(WindowAggCalls.number(answer, WindowAggCalls.DROPPED));
            model.accepted(WindowAggCalls.number(answer, WindowAggCalls.ACCEPTED),
                    WindowAggCalls.number(answer, WindowAggCalls.SMALLEST_END));
            if (timerService != null && answer.getRowCount() > 0) {
                VarBinaryVector timerKeys = (VarBinaryVector) column(answer, WindowAggCalls.KEY);
                BigIntVector windows = (BigIntVector) column(answer, WindowAggCalls.WINDOW_END);
                for (int i = 0; i < answer.getRowCount(); i++) {
                    byte[] bytes = timerKeys.get(i);
                    BinaryRowData key = new BinaryRowData(keyArity);
                    key.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
                    setCurrentKey(key);
                    long window = windows.get(i);
                    timerService.registerEventTimeTimer(window, model.triggerTime(window));
                }
            }
        }
    }

    // -- watermarks and timers -------------------------------------------------------------------

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        sendBatch();
        long watermark = mark.getTimestamp();
        if (watermark <= currentWatermark) {
            // As stock: a watermark that does not advance is forwarded as the current one.
            super.processWatermark(new Watermark(currentWatermark));
            return;
        }
        if (model.advance(watermark)) {
            registerNewWindows(timerWatermark());
        }
        if (timerService == null) {
            if (calls.stateEntries() > 0) {
                emitFired(watermark);
            }
            super.processWatermark(mark);
            return;
        }
        if (calls.stateEntries() > 0) {
            fire(watermark);
        }
        advanceTimers(mark);
        releaseFired();
    }

    /** The watermark of the timers: the last one forwarded (at a watermark, the one before it). */
    private long timerWatermark() {
        return timerService == null ? currentWatermark : timerService.currentWatermark();
    }

    /**
     * Emits every window the stage fires at {@code watermark}, in the order its timer queue fired
     * their timers (the order Flink's timer service would have), as stock's timers emit them.
     */
    private void emitFired(long watermark) {
        try (VectorSchemaRoot answer = calls.fire(watermark)) {
            VarBinaryVector keys = (VarBinaryVector) column(answer, WindowAggCalls.KEY);
            ArrowRowBatch values = valueRows(answer, valuesType);
            for (int i = 0; i < answer.getRowCount(); i++) {
                byte[] bytes = keys.get(i);
                firedKey.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
                RowData out = outRow.replace(firedKey, values.reusedRow(i));
                collector.collect(outCopier == null ? out : outCopier.copy(out));
            }
        }
    }

    /**
     * Stock's buffer flush: the sidecar hands over the (key, window) pairs new since the last
     * flush in first-occurrence order, and each gets its timer, in that order, as stock's
     * combiner registers them (in the stage's queue, when it keeps the timers).
     */
    private void registerNewWindows(long timerWatermark) throws Exception {
        try (VectorSchemaRoot pairs = calls.flush(timerWatermark)) {
            if (timerService == null) {
                // The stage registered them in its own queue and answered none.
                model.flushed();
                return;
            }
            VarBinaryVector keys = (VarBinaryVector) column(pairs, WindowAggCalls.KEY);
            BigIntVector ends = (BigIntVector) column(pairs, WindowAggCalls.WINDOW_END);
            for (int i = 0; i < pairs.getRowCount(); i++) {
                long end = ends.get(i);
                if (model.fired(end, timerWatermark)) {
                    throw new SidecarException(name + ": window ending " + end + " is already fired at the timer"
                            + " service's watermark " + timerWatermark + "; stock Flink would never emit it, which"
                            + " this operator does not reproduce");
                }
                byte[] bytes = keys.get(i);
                BinaryRowData key = new BinaryRowData(keyArity);
                key.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
                setCurrentKey(key);
                timerService.registerEventTimeTimer(end, model.triggerTime(end));
            }
        }
        model.flushed();
    }

    private void fire(long watermark) {
        fired = calls.fire(watermark);
        firedRows = new HashMap<>();
        firedEmitted = 0;
        firedEmpty = WindowAggCalls.emptyWindows(fired);
        VarBinaryVector keys = (VarBinaryVector) column(fired, WindowAggCalls.KEY);
        BigIntVector ends = (BigIntVector) column(fired, WindowAggCalls.WINDOW_END);
        for (int i = 0; i < fired.getRowCount(); i++) {
            firedRows.put(new FiredKey(ByteBuffer.wrap(keys.get(i)), ends.get(i)), i);
        }
        firedValues = valueRows(fired, valuesType);
    }

    private void releaseFired() {
        if (fired == null) {
            return;
        }
        int rows = fired.getRowCount();
        List<Long> missed = new ArrayList<>();
        if (firedEmitted != rows || firedEmpty != 0) {
            BigIntVector ends = (BigIntVector) column(fired, WindowAggCalls.WINDOW_END);
            firedRows.forEach((k, row) -> {
                if (row >= 0) {
                    missed.add(ends.get(row));
                }
            });
        }
        fired.close();
        fired = null;
        firedValues = null;
        firedRows = null;
        if (firedEmitted != rows || firedEmpty != 0) {
            throw new SidecarException(name + ": the sidecar fired " + rows + " windows (and " + firedEmpty
                    + " empty ones not met) but only " + firedEmitted + " had a timer (windows ending " + missed
                    + " had none at watermark " + currentWatermark + "); its state and Flink's timers disagree");
        }
    }

    @Override
    public void onEventTime(InternalTimer<RowData, Long> timer) throws Exception {
        RowData key = timer.getKey();
        byte[] bytes = keyBytes(key, keySerializer);
        Integer row = firedRows == null ? null : firedRows.get(new FiredKey(ByteBuffer.wrap(bytes), timer.getNamespace()));
        if (row == null && firedEmpty > 0) {
            // Stock reads the window's COUNT(*) as 0 and emits nothing for it.
            firedEmpty--;
            return;
        }
        if (row == null || row < 0) {
            throw new SidecarException(name + ": window state missing for a timer: window ending "
                    + timer.getNamespace() + " of key " + key + " (" + HexFormat.of().formatHex(bytes) + ") fired at "
                    + timer.getTimestamp() + " but the sidecar has " + (row == null ? "no value for it" : "emitted it"
                    + " already") + (firedRows == null ? "" : "; it fired " + firedRows.size() + " windows"));
        }
        firedEmitted++;
        firedRows.put(new FiredKey(ByteBuffer.wrap(bytes), timer.getNamespace()), -1);
        RowData out = outRow.replace(key, firedValues.reusedRow(row));
        collector.collect(outCopier == null ? out : outCopier.copy(out));
        long next = model.nextWindow(timer.getNamespace());
        if (next != Long.MIN_VALUE) {
            // As stock: a HOP window that was not empty, or a CUMULATE window before the last of
            // its max-size window, registers the next window's timer, which fires in this same
            // pass when the watermark reached it (the sidecar fired it too). CUMULATE windows are
            // never empty: the aggregate has no COUNT(*) index.
            timerService.registerEventTimeTimer(next, model.triggerTime(next));
        }
    }

    // -- checkpoints -----------------------------------------------------------------------------

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        // Stock flushes its buffer before every barrier.
        flushForSnapshot();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    /** Sends the batch and registers the timers of the windows it opened, so state and timers describe one point. */
    private void flushForSnapshot() throws Exception {
        sendBatch();
        if (model.pending()) {
            registerNewWindows(timerWatermark());
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        // Flink calls prepareSnapshotPreBarrier first, which left nothing pending; a caller that
        // did not (a test harness) still gets a snapshot holding every row and its timer.
        flushForSnapshot();
        super.snapshotState(context);
        watermarkState.update(Collections.singletonList(currentWatermark));
        timerQueueState.update(Collections.singletonList(timerQueue.id));
    }

    @Override
    protected void releaseAnswers() {
        if (fired != null) {
            fired.close();
            fired = null;
        }
    }
}
