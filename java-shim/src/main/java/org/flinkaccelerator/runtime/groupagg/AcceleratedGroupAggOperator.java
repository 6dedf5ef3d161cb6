package org.flinkaccelerator.runtime.groupagg;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.memory.MemoryManager;
import org.apache.flink.runtime.memory.MemoryReservationException;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.KeyGroupStatePartitionStreamProvider;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.api.common.operators.ProcessingTimeService.ProcessingTimeCallback;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.runtime.operators.TableStreamOperator;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.IOUtils;
import org.flinkaccelerator.runtime.ArrowMemory;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarProcess;
import org.flinkaccelerator.sidecar.SidecarSettings;
import org.flinkaccelerator.sidecar.SidecarStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A non-windowed group aggregate whose accumulators live in the Python sidecar's
 * {@code group_agg} stage, emitting what stock Flink's {@code GroupAggFunction} (run by a
 * {@code KeyedProcessOperator}) emits for each input row, in input order: {@code +I} on a key's
 * first row, then {@code -U} (when the planner asks for update-befores) and {@code +U} when the
 * aggregate value changed, nothing when it did not; each output row is the key joined with the
 * values, stamped with its input row's timestamp.
 *
 * <p>Rows are buffered and sent as one {@code update} batch when the batch is full, when its first
 * row has waited {@code accelerator.batch.max-delay}, before a watermark is forwarded, before a
 * checkpoint barrier and at end of input; the sidecar computes every row's output for the batch
 * at once and the operator emits them in the rows' order. A checkpoint writes the sidecar's
 * accumulators per key group into raw keyed state ({@link GroupAggStateFormat}).
 */
public final class AcceleratedGroupAggOperator extends TableStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(AcceleratedGroupAggOperator.class);

    /** Gauges in the operator's group (docs/metrics.md). */
    static final String STATE_ENTRIES = "stateEntries";
    static final String STATE_BYTES = "stateBytes";
    static final String STATE_BUDGET_BYTES = "stateBudgetBytes";

    private final GroupAggSpec spec;

    private transient String name;
    private transient RowData.FieldGetter[] arguments;
    private transient String fingerprint;

    private transient MemoryManager memoryManager;
    private transient long stateBudget;
    private transient ArrowMemory arrowMemory;
    private transient BufferAllocator allocator;
    private transient SidecarProcess sidecar;
    private transient SidecarStage stage;
    private transient GroupAggCalls calls;

    private transient VectorSchemaRoot batchRoot;
    private transient RowDataArrowWriter batchWriter;
    private transient GenericRowData batchRow;
    private transient long batchBytes;
    /** Per buffered row: its key (Flink's key object, copied) and its timestamp, for the output rows. */
    private transient List<RowData> batchKeys;
    private transient long[] batchTimestamps;
    private transient boolean[] batchHasTimestamp;
    private transient ProcessingTimeCallback delayFlush;
    private transient boolean delayFlushScheduled;

    private transient RowDataSerializer outCopier;
    private transient ListState<String> formatState;
    private transient int restoreCalls;

    public AcceleratedGroupAggOperator(GroupAggSpec spec) {
        this.spec = spec;
    }

    public GroupAggSpec spec() {
        return spec;
    }

    /** Raw keyed state holds the sidecar's state; the operator registers no timers. */
    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        name = spec.operatorName();
        fingerprint = spec.fingerprint();
        int[] indexes = spec.argumentIndexes();
        arguments = new RowData.FieldGetter[indexes.length];
        for (int i = 0; i < arguments.length; i++) {
            arguments[i] = RowData.createFieldGetter(spec.inputType().getTypeAt(indexes[i]), indexes[i]);
        }
        formatState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(GroupAggStateFormat.MARKER_STATE, StringSerializer.INSTANCE));
        if (context.isRestored()) {
            GroupAggStateFormat.checkMarkers(formatState.get(), fingerprint);
        }
        startSidecar();
        if (context.isRestored()) {
            restore(context.getRawKeyedStateInputs());
        }
    }

    private void startSidecar() throws Exception {
        Environment environment = getContainingTask().getEnvironment();
        stateBudget = computeMemorySize();
        try {
            environment.getMemoryManager().reserveMemory(this, stateBudget);
        } catch (MemoryReservationException e) {
            throw new IllegalStateException(name + ": cannot reserve its share of the slot's managed memory ("
                    + stateBudget + " bytes) for its group state: " + e.getMessage() + "; raise"
                    + " taskmanager.memory.managed.size", e);
        }
        memoryManager = environment.getMemoryManager();
        double pythonFraction = getOperatorConfig().getManagedMemoryFractionOperatorUseCaseOfSlot(
                ManagedMemoryUseCase.PYTHON, environment.getJobConfiguration(),
                environment.getTaskManagerInfo().getConfiguration(), getUserCodeClassloader());
        arrowMemory = ArrowMemory.open(name + "#" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                environment.getMemoryManager(), pythonFraction, spec.arrowLimit());
        allocator = arrowMemory.allocator();
        batchRoot = RowDataArrowWriter.createRoot(spec.batchType(), allocator);
        batchWriter = new RowDataArrowWriter(spec.batchType(), batchRoot);
        batchRow = new GenericRowData(spec.batchType().getFieldCount());
        batchKeys = new ArrayList<>();
        batchTimestamps = new long[16];
        batchHasTimestamp = new boolean[16];
        SidecarSettings settings = new SidecarSettings(spec.pythonExecutable(), spec.sidecarTimeout(),
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        sidecar = SidecarProcess.start(settings);
        try {
            stage = SidecarStage.open(sidecar, spec.descriptorJson(), allocator);
        } catch (SidecarException e) {
            throw new SidecarException(name + ": the Python sidecar refused the group aggregate: " + e.getMessage(), e);
        }
        calls = new GroupAggCalls(stage, stateBudget);
        LOG.info("{} (subtask {}): sidecar pid {} runs group_agg stage {} with a state budget of {} bytes", name,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), sidecar.pid(), stage.id(), stateBudget);
    }

    @Override
    public void open() throws Exception {
        super.open();
        outCopier = getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(spec.outputType()) : null;
        delayFlush = time -> {
            delayFlushScheduled = false;
            sendBatch();
        };
        metrics.gauge(STATE_ENTRIES, () -> calls == null ? 0L : calls.stateEntries());
        metrics.gauge(STATE_BYTES, () -> calls == null ? 0L : calls.stateBytes());
        metrics.gauge(STATE_BUDGET_BYTES, () -> stateBudget);
    }

    // -- rows ------------------------------------------------------------------------------------

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        if (row.getRowKind() != RowKind.INSERT) {
            throw new SidecarException(name + ": received a " + row.getRowKind() + " row, but the planner"
                    + " accelerated this group aggregate for an insert-only input; run the job with"
                    + " accelerator.group-aggregate.enabled: false");
        }
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        byte[] keyBytes = BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes());
        int at = batchWriter.rowCount();
        if (at == batchTimestamps.length) {
            batchTimestamps = Arrays.copyOf(batchTimestamps, 2 * at);
            batchHasTimestamp = Arrays.copyOf(batchHasTimestamp, 2 * at);
        }
        batchKeys.add(key.copy());
        batchTimestamps[at] = element.getTimestamp();
        batchHasTimestamp[at] = element.hasTimestamp();
        batchRow.setField(0, keyBytes);
        batchRow.setField(1, KeyGroupRangeAssignment.assignToKeyGroup(key,
                getRuntimeContext().getTaskInfo().getMaxNumberOfParallelSubtasks()));
        for (int i = 0; i < arguments.length; i++) {
            batchRow.setField(GroupAggSpec.TRANSPORT_COLUMNS + i, arguments[i].getFieldOrNull(row));
        }
        batchWriter.write(batchRow);
        batchBytes += keyBytes.length + 16L * (GroupAggSpec.TRANSPORT_COLUMNS + arguments.length);
        if (batchWriter.rowCount() >= spec.batchSize() || batchBytes >= spec.batchBytes()) {
            sendBatch();
        } else if (!delayFlushScheduled) {
            delayFlushScheduled = true;
            getProcessingTimeService().registerTimer(
                    getProcessingTimeService().getCurrentProcessingTime() + spec.maxDelay().toMillis(), delayFlush);
        }
    }

    /** Sends the buffered rows ({@code update}) and emits the rows the answer holds, in order. */
    private void sendBatch() {
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
        try (answer) {
            emit(answer, rows);
        } finally {
            batchKeys.clear();
        }
    }

    private void emit(VectorSchemaRoot answer, int rows) {
        IntVector rowIds = (IntVector) column(answer, GroupAggCalls.ROW);
        TinyIntVector kinds = (TinyIntVector) column(answer, GroupAggCalls.KIND);
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
            JoinedRowData out = new JoinedRowData(RowKind.fromByteValue(kinds.get(i)), batchKeys.get(row),
                    valueRows.reusedRow(i));
            RowData emitted = outCopier == null ? out : outCopier.copy(out);
            output.collect(batchHasTimestamp[row] ? new StreamRecord<>(emitted, batchTimestamps[row])
                    : new StreamRecord<>(emitted));
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        sendBatch();
        super.processWatermark(mark);
    }

    @Override
    public void endInput() throws Exception {
        sendBatch();
    }

    @Override
    public void finish() throws Exception {
        sendBatch();
        super.finish();
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
        formatState.update(Collections.singletonList(GroupAggStateFormat.marker(fingerprint)));
        KeyedStateCheckpointOutputStream out = context.getRawKeyedOperatorStateOutput();
        try (VectorSchemaRoot entries = calls.snapshot()) {
            IntVector groups = (IntVector) column(entries, WindowAggCalls.KEY_GROUP);
            int row = 0;
            int count = entries.getRowCount();
            for (int keyGroup : keyGroupRange()) {
                int first = row;
                while (row < count && groups.get(row) == keyGroup) {
                    row++;
                }
                if (row < count && groups.get(row) < keyGroup) {
                    throw new SidecarException(name + ": the sidecar's snapshot holds key group " + groups.get(row)
                            + " out of order or outside this subtask's key groups " + keyGroupRange());
                }
                out.startNewKeyGroup(keyGroup);
                if (row == first) {
                    GroupAggStateFormat.FRAMES.write(out, fingerprint, null);
                } else {
                    try (VectorSchemaRoot slice = entries.slice(first, row - first)) {
                        GroupAggStateFormat.FRAMES.write(out, fingerprint, slice);
                    }
                }
            }
            if (row != count) {
                throw new SidecarException(name + ": the sidecar's snapshot holds key group " + groups.get(row)
                        + ", outside this subtask's key groups " + keyGroupRange());
            }
        }
    }

    /** Hands each restored key group's rows to the sidecar in calls of at most {@code accelerator.batch.max-bytes}. */
    private void restore(Iterable<KeyGroupStatePartitionStreamProvider> inputs) throws Exception {
        KeyGroupRange range = keyGroupRange();
        long entries = 0;
        restoreCalls = 0;
        for (KeyGroupStatePartitionStreamProvider input : inputs) {
            int keyGroup = input.getKeyGroupId();
            try (VectorSchemaRoot rows = GroupAggStateFormat.FRAMES.read(input.getStream(), keyGroup, fingerprint,
                    allocator)) {
                if (rows == null) {
                    continue;
                }
                int count = rows.getRowCount();
                long bytes = rows.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
                int perCall = (int) Math.max(1, Math.min(count, spec.batchBytes() * count / Math.max(1, bytes)));
                for (int from = 0; from < count; from += perCall) {
                    try (VectorSchemaRoot chunk = rows.slice(from, Math.min(perCall, count - from))) {
                        calls.restore(chunk, range.getStartKeyGroup(), range.getEndKeyGroup(),
                                GroupAggStateFormat.VERSION, fingerprint);
                    } catch (SidecarException e) {
                        throw new SidecarException(name + ": restoring key group " + keyGroup + " failed: "
                                + e.getMessage(), e);
                    }
                    restoreCalls++;
                }
                entries += count;
            }
        }
        LOG.info("{} (subtask {}): restored {} group keys of key groups {} in {} calls", name,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), entries, range, restoreCalls);
    }

    private KeyGroupRange keyGroupRange() {
        var task = getRuntimeContext().getTaskInfo();
        return KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(task.getMaxNumberOfParallelSubtasks(),
                task.getNumberOfParallelSubtasks(), task.getIndexOfThisSubtask());
    }

    private FieldVector column(VectorSchemaRoot root, String column) {
        FieldVector vector = root.getVector(column);
        if (vector == null) {
            throw new SidecarException(name + ": the group_agg stage's answer has no '" + column + "' column: "
                    + root.getSchema());
        }
        return vector;
    }

    /** Stops the sidecar and frees the Arrow buffers; each step runs whatever the ones before it threw. */
    @Override
    public void close() throws Exception {
        try {
            if (stage != null) {
                stage.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: closing the stage failed; the sidecar is stopped anyway", name, e);
        } finally {
            MemoryManager reserved = memoryManager;
            AutoCloseable release = () -> {
                if (reserved != null) {
                    reserved.releaseMemory(this, stateBudget);
                }
            };
            AutoCloseable[] resources = {sidecar, batchRoot, arrowMemory, release, super::close};
            stage = null;
            sidecar = null;
            memoryManager = null;
            batchRoot = null;
            allocator = null;
            arrowMemory = null;
            IOUtils.closeAll(resources);
        }
    }
}
