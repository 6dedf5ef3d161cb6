package org.flinkaccelerator.runtime.windowjoin;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerService;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.runtime.state.EventTimeSidecarOperator;
import org.flinkaccelerator.runtime.state.FiredKey;
import org.flinkaccelerator.runtime.state.TimersOutsideRawState;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * An event-time window join (INNER, LEFT, RIGHT, FULL, SEMI or ANTI) whose held rows live in the
 * Python sidecar's {@code window_join} stage, while Flink keeps the control flow stock Flink's
 * {@code WindowJoinOperator} has: a row whose window already fired at the current watermark is
 * dropped and counted ({@code leftNumLateRecordsDropped}, {@code rightNumLateRecordsDropped}),
 * every other row registers its window's event-time timer on Flink's timer service, as stock's
 * does, and goes to the sidecar in {@code update} batches, sent before every watermark and barrier.
 * At a watermark, {@code fire} answers the output of every window it fires, each window's rows in
 * stock's order; the timer service, advancing, emits each window's rows in its timer's turn,
 * without a timestamp, so records and watermarks leave in stock's order. A checkpoint writes the
 * held rows per key group into raw keyed state ({@link WindowJoinStateFormat}); the timers are
 * Flink's keyed state.
 */
public final class AcceleratedWindowJoinOperator
        extends EventTimeSidecarOperator<WindowJoinSpec, WindowJoinCalls, Long>
        implements TwoInputStreamOperator<RowData, RowData, RowData> {
    private static final long serialVersionUID = 1L;
    static final String OPTION = "accelerator.window-join.enabled";
    private static final Kind KIND = new Kind(WindowJoinSpec.KIND, "window join", "window join", "held rows",
            WindowJoinStateFormat.FORMAT);
    static final String TIMERS = "accelerator-window-join-timers";
    /** Stock's late-row metric names, one counter and rate per input (WindowJoinHelper). */
    static final String LEFT_LATE_DROPPED = "leftNumLateRecordsDropped";
    static final String LEFT_LATE_DROPPED_RATE = "leftLateRecordsDroppedRate";
    static final String RIGHT_LATE_DROPPED = "rightNumLateRecordsDropped";
    static final String RIGHT_LATE_DROPPED_RATE = "rightLateRecordsDroppedRate";
    private static final byte LEFT = 0;
    private static final byte RIGHT = 1;

    private transient Side left;
    private transient Side right;
    private transient long batchBytes;

    private transient InternalTimerService<Long> timerService;
    private transient TimestampedCollector<RowData> collector;
    private transient RowDataSerializer outCopier;

    /** The answer of the last {@code fire}: each fired window's rows, looked up as the timers fire. */
    private transient VectorSchemaRoot fired;
    private transient ArrowRowBatch firedValues;
    private transient Map<FiredKey, int[]> firedRows;
    private transient long firedWindows;
    private transient long firedTimers;

    /**
     * One input: its fields' getters, where they go in a batch row, its window end field and its
     * late-row counter.
     */
    private record Side(byte id, RowData.FieldGetter[] fields, int firstColumn, int otherColumn, int otherCount,
            int windowEnd, Counter lateDropped) {
        static Side of(byte id, RowType type, int firstColumn, int otherColumn, int otherCount, int windowEnd,
                Counter lateDropped) {
            RowData.FieldGetter[] fields = new RowData.FieldGetter[type.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = FieldGetters.nullChecked(type.getTypeAt(i), i);
            }
            return new Side(id, fields, firstColumn, otherColumn, otherCount, windowEnd, lateDropped);
        }
    }

    public AcceleratedWindowJoinOperator(WindowJoinSpec spec) {
        super(spec);
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    @Override
    protected WindowJoinCalls openCalls(SidecarStage stage, long stateBudget) {
        return new WindowJoinCalls(stage, stateBudget);
    }

    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        TimersOutsideRawState.check(getKeyedStateBackend(), name, OPTION, "the stock window join",
                WindowJoinStateException::new);
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        collector.eraseTimestamp();
        outCopier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.outputType()) : null;
        timerService = getInternalTimerService(TIMERS, LongSerializer.INSTANCE, this);
        int leftCount = spec.leftType().getFieldCount();
        int rightCount = spec.rightType().getFieldCount();
        int first = WindowJoinSpec.TRANSPORT_COLUMNS;
        // As stock's WindowJoinHelper.registerMetric.
        left = Side.of(LEFT, spec.leftType(), first, first + leftCount, rightCount, spec.leftWindowEnd(),
                lateRowsCounter(LEFT_LATE_DROPPED, LEFT_LATE_DROPPED_RATE));
        right = Side.of(RIGHT, spec.rightType(), first + leftCount, first, leftCount, spec.rightWindowEnd(),
                lateRowsCounter(RIGHT_LATE_DROPPED, RIGHT_LATE_DROPPED_RATE));
        registerWatermarkLatency(timerService);
    }

    // -- rows ------------------------------------------------------------------------------------

    @Override
    public void processElement1(StreamRecord<RowData> element) throws Exception {
        process(element, left);
    }

    @Override
    public void processElement2(StreamRecord<RowData> element) throws Exception {
        process(element, right);
    }

    private void process(StreamRecord<RowData> element, Side side) throws Exception {
        RowData row = element.getValue();
        if (row.getRowKind() != RowKind.INSERT) {
            throw new SidecarException(name + ": received a " + row.getRowKind() + " row, but the planner"
                    + " accelerated this window join for insert-only inputs; run the job with " + OPTION + ": false");
        }
        // As stock (WindowJoinHelper.processElement): the window end as a long, late when its window fired.
        long windowEnd = row.getLong(side.windowEnd());
        if (TimeWindowUtil.isWindowFired(windowEnd, timerService.currentWatermark(), spec.shiftTimeZone())) {
            side.lateDropped().inc();
            return;
        }
        long trigger = TimeWindowUtil.toEpochMillsForTimer(windowEnd - 1, spec.shiftTimeZone());
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = keyBytes(key);
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        batchRow.setField(2, side.id());
        batchRow.setField(3, windowEnd);
        batchRow.setField(4, trigger);
        for (int i = 0; i < side.fields().length; i++) {
            batchRow.setField(side.firstColumn() + i, side.fields()[i].getFieldOrNull(row));
        }
        for (int i = 0; i < side.otherCount(); i++) {
            batchRow.setField(side.otherColumn() + i, null);
        }
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + 16L * (WindowJoinSpec.TRANSPORT_COLUMNS + side.fields().length);
        // As stock: every row registers its window's timer (Flink keeps one per key and window).
        timerService.registerEventTimeTimer(windowEnd, trigger);
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        }
    }

    /** Sends the rows since the last batch to the sidecar ({@code update}). */
    private void sendBatch() {
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

    // -- watermarks and timers -------------------------------------------------------------------

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        sendBatch();
        if (calls.stateEntries() > 0) {
            fire(mark.getTimestamp());
        }
        advanceTimers(mark);
        releaseFired(mark.getTimestamp());
    }

    private void fire(long watermark) {
        try {
            fired = calls.fire(watermark);
        } catch (SidecarException e) {
            throw new SidecarException(name + ": firing the windows at watermark " + watermark + " failed: "
                    + e.getMessage(), e);
        }
        firedWindows = WindowAggCalls.number(fired, WindowJoinCalls.FIRED_WINDOWS);
        firedTimers = 0;
        firedRows = new HashMap<>();
        VarBinaryVector keys = (VarBinaryVector) column(fired, WindowJoinCalls.KEY);
        BigIntVector ends = (BigIntVector) column(fired, WindowJoinCalls.WINDOW_END);
        int rows = fired.getRowCount();
        for (int start = 0, end; start < rows; start = end) {
            byte[] key = keys.get(start);
            long windowEnd = ends.get(start);
            end = start + 1;
            while (end < rows && ends.get(end) == windowEnd && Arrays.equals(keys.get(end), key)) {
                end++;
            }
            if (firedRows.put(new FiredKey(ByteBuffer.wrap(key), windowEnd), new int[] {start, end}) != null) {
                throw new SidecarException(name + ": the sidecar answered the rows of window ending " + windowEnd
                        + " of key " + HexFormat.of().formatHex(key) + " apart; a window's rows come together");
            }
        }
        firedValues = valueRows(fired, spec.outputType());
    }

    private void releaseFired(long watermark) {
        if (fired == null) {
            return;
        }
        long windows = firedWindows;
        long timers = firedTimers;
        releaseAnswers();
        if (windows != timers) {
            throw new SidecarException(name + ": the sidecar fired " + windows + " windows at watermark " + watermark
                    + " but Flink fired " + timers + " of their timers; the held rows and Flink's timers disagree");
        }
    }

    @Override
    public void onEventTime(InternalTimer<RowData, Long> timer) throws Exception {
        firedTimers++;
        if (firedRows == null) {
            return;
        }
        // The key serializer of a keyed two-input operator is the key selector's: binary rows.
        byte[] bytes = keyBytes((BinaryRowData) timer.getKey());
        int[] rows = firedRows.get(new FiredKey(ByteBuffer.wrap(bytes), timer.getNamespace()));
        if (rows == null) {
            // The window emits nothing (an INNER join's window with rows of one input only, say).
            return;
        }
        for (int i = rows[0]; i < rows[1]; i++) {
            RowData out = firedValues.reusedRow(i);
            out.setRowKind(RowKind.INSERT);
            collector.collect(outCopier == null ? out : outCopier.copy(out));
        }
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
        // did not (a test harness) still gets a snapshot holding every row of its timers.
        sendBatch();
        super.snapshotState(context);
    }

    @Override
    public void finish() throws Exception {
        sendBatch();
        super.finish();
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
}
