package org.flinkaccelerator.runtime.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.tasks.StreamTask;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.EncodedMessages;
import org.apache.flink.util.function.ThrowingRunnable;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarStage;

/**
 * A keyed operator, of one input or two, whose sidecar stage answers, per batch of rows, the
 * changelog rows a stock Flink operator emits for them, in input order.
 *
 * <p>A subclass fills {@code batchRow}'s columns after the transport ones and calls
 * {@link #bufferRow}, which adds {@code $key} (the key's binary row bytes) and {@code $key_group};
 * the rows are sent as one {@code update} batch when the batch is full, when its first row has
 * waited {@code accelerator.batch.max-delay}, before a watermark status goes out, before a
 * checkpoint barrier and at the end of the input. A watermark that arrives while rows are buffered
 * (the combined watermark of a two-input operator's inputs) is held at its place between them and
 * forwarded when the answer's rows reach that place, so records and watermarks leave in stock's
 * order without a batch per watermark (a source's periodic watermarks would otherwise cut the
 * batches to a handful of rows). Flink emits a two-input operator's watermark status from final
 * methods, straight to the operator's output: that output is wrapped ({@link #setup}) so a status
 * first sends the buffered rows and the watermarks held among them. The answer holds every output
 * row in order: {@code $row} (the batch row it belongs to), {@code $kind} (the RowKind byte) and
 * the values; each output row carries its input row's timestamp when the subclass asked for it.
 *
 * @param <S> the operator's spec
 */
public abstract class KeyedRowBatchOperator<S extends ChangelogSpec> extends SidecarStateOperator<S, ChangelogCalls> {
    private static final long serialVersionUID = 1L;

    /** Counters in the operator's group (docs/metrics.md): {@code update} calls and the rows they sent. */
    public static final String UPDATE_BATCHES = "updateBatches";
    public static final String UPDATE_ROWS = "updateRows";

    private transient long batchBytes;
    private transient Counter updateBatches;
    private transient Counter updateRows;
    /** Per buffered row: its key (Flink's key object, copied) and its timestamp, for the output rows. */
    private transient List<RowData> batchKeys;
    private transient long[] batchTimestamps;
    private transient boolean[] batchHasTimestamp;
    private transient ProcessingTimeCallback delayFlush;
    private transient boolean delayFlushScheduled;
    private transient RowDataSerializer outCopier;
    /** Writes each output row as stock's operator emits it (forwardedColumns), else null. */
    private transient ForwardedInputRows forwardedRows;
    /** Emits the sink's messages the answer holds when the stage encodes them (an encoding fused into it), else null. */
    private transient EncodedMessages messages;
    /** Watermarks that arrived while rows were buffered, and how many buffered rows preceded each. */
    private transient List<Watermark> heldWatermarks;
    private transient List<Integer> heldAfterRows;

    protected KeyedRowBatchOperator(S spec) {
        super(spec);
    }

    /** The option that turns this operator off, for the error when a row it does not take arrives. */
    protected abstract String option();

    /** The output row for batch row {@code key}'s answer {@code values} of kind {@code kind}. */
    protected abstract RowData output(RowKind kind, RowData key, RowData values);

    /**
     * How many leading output columns the stock operator this one replaces forwards from its input
     * row (a deduplication's and a Top-N's: the whole input row, before a Top-N's rank number), so
     * the output rows are of the classes it emits ({@link ForwardedInputRows}): a chained operator
     * that reads a field without {@code isNullAt} then reads what it reads stock (Flink's sink
     * timestamp inserter finds a deduplication's NULL TIMESTAMP(3) rowtime as epoch 0, and writes
     * the row, where a Top-N's with a rank number fails). 0: none, as this operator's rows.
     */
    protected int forwardedColumns() {
        return 0;
    }

    @Override
    protected ChangelogCalls openCalls(SidecarStage stage, long stateBudget) {
        return new ChangelogCalls(stage, stateBudget, spillDirectory(),
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
    }

    /** Sets up the buffers; a subclass reading its own state calls it first. */
    protected void initializeBatches() {
        batchKeys = new ArrayList<>();
        batchTimestamps = new long[16];
        batchHasTimestamp = new boolean[16];
        heldWatermarks = new ArrayList<>();
        heldAfterRows = new ArrayList<>();
    }

    @Override
    public void open() throws Exception {
        super.open();
        outCopier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.outputType()) : null;
        forwardedRows = forwardedColumns() == 0 ? null : new ForwardedInputRows(spec.outputType(), forwardedColumns(),
                getExecutionConfig().isObjectReuseEnabled());
        messages = spec.encodesMessages() ? new EncodedMessages(name, spec.writtenRow()) : null;
        updateBatches = metrics.counter(UPDATE_BATCHES);
        updateRows = metrics.counter(UPDATE_ROWS);
        delayFlush = time -> {
            delayFlushScheduled = false;
            sendBatch();
        };
    }

    /** Fails naming the option to turn off when an input row is not an INSERT. */
    protected final void checkInsert(RowData row) {
        if (row.getRowKind() != RowKind.INSERT) {
            throw new SidecarException(name + ": received a " + row.getRowKind() + " row, but the planner"
                    + " accelerated this " + kind().operator() + " for an insert-only input; run the job with "
                    + option() + ": false");
        }
    }

    /**
     * Writes {@code batchRow}, its columns after the transport ones filled, as the next row of the
     * batch, for the current key; its output rows carry the timestamp of {@code element} when
     * {@code stamp}. {@code valueBytes} estimates the filled columns' size.
     */
    protected final void bufferRow(StreamRecord<RowData> element, boolean stamp, long valueBytes) throws Exception {
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes());
        int at = batchWriter.rowCount();
        if (at == batchTimestamps.length) {
            batchTimestamps = Arrays.copyOf(batchTimestamps, 2 * at);
            batchHasTimestamp = Arrays.copyOf(batchHasTimestamp, 2 * at);
        }
        batchKeys.add(key.copy());
        batchTimestamps[at] = element.getTimestamp();
        batchHasTimestamp[at] = stamp && element.hasTimestamp();
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + valueBytes;
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        } else if (!delayFlushScheduled) {
            delayFlushScheduled = true;
            getProcessingTimeService().registerTimer(
                    getProcessingTimeService().getCurrentProcessingTime() + spec.maxDelay().toMillis(), delayFlush);
        }
    }

    /** Sends the buffered rows ({@code update}) and emits the rows the answer holds, in order. */
    protected final void sendBatch() throws Exception {
        // Nothing was started when opening failed (a refused restore): nothing is buffered.
        int rows = batchWriter == null ? 0 : batchWriter.rowCount();
        if (rows == 0) {
            return;
        }
        VectorSchemaRoot answer;
        try {
            answer = calls.update(batchWriter.finish());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of " + rows + " rows failed: " + e.getMessage(), e);
        } finally {
            batchWriter.reset();
            batchBytes = 0;
        }
        count(rows);
        try (answer) {
            emit(answer, rows, batchKeys::get, batchTimestamps, batchHasTimestamp);
        } finally {
            batchKeys.clear();
        }
        releaseWatermarks(rows);
    }

    /**
     * Sends {@code part}, rows another operator batched for this subtask (a batch exchange), as one
     * {@code update} after the buffered rows, and emits the rows the answer holds, in order: each
     * with the key {@code keys} gives for its batch row and, where {@code hasTimestamp}, that row's
     * timestamp.
     */
    protected final void sendPart(VectorSchemaRoot part, IntFunction<RowData> keys, long[] timestamps,
            boolean[] hasTimestamp) throws Exception {
        sendBatch();
        int rows = part.getRowCount();
        if (rows == 0) {
            return;
        }
        VectorSchemaRoot answer;
        try {
            answer = calls.update(part);
        } catch (SidecarException e) {
            throw new SidecarException(name + ": update of a batch of " + rows + " rows from the batch exchange failed: "
                    + e.getMessage(), e);
        }
        count(rows);
        try (answer) {
            emit(answer, rows, keys, timestamps, hasTimestamp);
        }
    }

    private void count(int rows) {
        updateBatches.inc();
        updateRows.inc(rows);
    }

    /** Forwards the held watermarks that followed at most {@code rows} buffered rows, in order. */
    private void releaseWatermarks(int rows) throws Exception {
        while (!heldWatermarks.isEmpty() && heldAfterRows.get(0) <= rows) {
            heldAfterRows.remove(0);
            super.processWatermark(heldWatermarks.remove(0));
        }
    }

    private void emit(VectorSchemaRoot answer, int rows, IntFunction<RowData> keys, long[] timestamps,
            boolean[] hasTimestamp) throws Exception {
        if (messages != null) {
            // The held watermarks follow the batch's messages (sendBatch): the Kafka writer reads none.
            TinyIntVector messageKinds = (TinyIntVector) column(answer, ChangelogCalls.KIND);
            messages.emit(answer, i -> RowKind.fromByteValue(messageKinds.get(i)), output);
            return;
        }
        IntVector rowIds = (IntVector) column(answer, ChangelogCalls.ROW);
        TinyIntVector kinds = (TinyIntVector) column(answer, ChangelogCalls.KIND);
        List<FieldVector> vectors = answer.getFieldVectors();
        List<FieldVector> values = vectors.subList(2, vectors.size());
        List<Field> fields = new ArrayList<>();
        values.forEach(v -> fields.add(v.getField()));
        ArrowRowBatch valueRows = new ArrowRowBatch(spec.valuesType(),
                new VectorSchemaRoot(fields, new ArrayList<>(values), answer.getRowCount()));
        int previous = -1;
        for (int i = 0; i < answer.getRowCount(); i++) {
            int row = rowIds.get(i);
            if (row < previous || row >= rows) {
                throw new SidecarException(name + ": the sidecar answered output " + i + " for batch row " + row
                        + " after row " + previous + " of " + rows + "; its answers must follow the rows' order");
            }
            previous = row;
            releaseWatermarks(row);
            RowData out = output(RowKind.fromByteValue(kinds.get(i)), keys.apply(row), valueRows.reusedRow(i));
            RowData emitted = forwardedRows != null ? forwardedRows.of(out)
                    : outCopier == null ? out : outCopier.copy(out);
            output.collect(hasTimestamp[row] ? new StreamRecord<>(emitted, timestamps[row])
                    : new StreamRecord<>(emitted));
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        int buffered = batchWriter == null ? 0 : batchWriter.rowCount();
        if (buffered == 0) {
            super.processWatermark(mark);
        } else {
            heldWatermarks.add(mark);
            heldAfterRows.add(buffered);
        }
    }

    /**
     * Wraps Flink's output so a watermark status sends the buffered rows and held watermarks first:
     * Flink emits a status straight to the output, from methods no subclass can override on every
     * supported Flink line ({@code processWatermarkStatus1} and {@code 2} are final).
     */
    @Override
    public void setup(StreamTask<?, ?> containingTask, StreamConfig config, Output<StreamRecord<RowData>> output) {
        super.setup(containingTask, config, new SendingBeforeStatus(output));
    }

    /** Flink's output, sending the buffered rows (and the watermarks held among them) before a watermark status. */
    private final class SendingBeforeStatus extends ForwardingOutput {
        SendingBeforeStatus(Output<StreamRecord<RowData>> output) {
            super(output);
        }

        @Override
        public void emitWatermarkStatus(WatermarkStatus status) {
            ThrowingRunnable.unchecked(KeyedRowBatchOperator.this::sendBatch).run();
            output.emitWatermarkStatus(status);
        }
    }

    @Override
    public void finish() throws Exception {
        sendBatch();
        super.finish();
    }

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
}
