package org.flinkaccelerator.runtime.state;

import java.util.Collections;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
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
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.operators.TableStreamOperator;
import org.apache.flink.util.IOUtils;
import org.flinkaccelerator.runtime.ArrowMemory;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;
import org.flinkaccelerator.runtime.exchange.BatchInput;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;
import org.flinkaccelerator.sidecar.SharedMemoryBudget;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarProcess;
import org.flinkaccelerator.sidecar.SidecarSettings;
import org.flinkaccelerator.sidecar.SidecarStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A keyed operator whose state lives in a Python sidecar stage: it reserves the operator's share
 * of the slot's managed memory as the state budget, starts the sidecar with the stage, writes the
 * stage's state per key group into raw keyed state at a checkpoint, taking it from the sidecar in
 * pieces of at most {@code accelerator.batch.max-bytes} (with a format marker in operator state), and
 * hands it back in calls of at most that at a restore, and stops it all at close. Subclasses keep their rows, timers and output.
 *
 * @param <S> the operator's spec
 * @param <C> the calls of its stage
 */
public abstract class SidecarStateOperator<S extends SidecarStateSpec, C extends SidecarStateCalls>
        extends TableStreamOperator<RowData> {
    private static final long serialVersionUID = 1L;

    /** Gauges in the operator's group (docs/metrics.md). */
    public static final String STATE_ENTRIES = "stateEntries";
    public static final String STATE_BYTES = "stateBytes";
    public static final String STATE_BUDGET_BYTES = "stateBudgetBytes";

    /**
     * What an operator's state is, as its logs and errors name it, and how it is stored.
     *
     * @param stage the stage's kind ("window_agg")
     * @param operator the operator the sidecar refuses ("window aggregate")
     * @param state the state the budget is reserved for ("window")
     * @param entries what a restore counts ("window entries")
     */
    public record Kind(String stage, String operator, String state, String entries, SidecarStateFormat format) {}

    protected final S spec;

    protected transient String name;
    private transient String fingerprint;

    private transient MemoryManager memoryManager;
    /** The managed memory reserved for the sidecar's state: the operator's share, as stock's state buffers take it. */
    private transient long stateBudget;
    private transient ArrowMemory arrowMemory;
    private transient BufferAllocator allocator;
    private transient SidecarProcess sidecar;
    private transient SidecarStage stage;
    protected transient C calls;

    private transient VectorSchemaRoot batchRoot;
    protected transient RowDataArrowWriter batchWriter;
    protected transient GenericRowData batchRow;

    private transient ListState<String> formatState;
    private transient int restoreCalls;
    private transient long snapshotPieces;

    protected SidecarStateOperator(S spec) {
        this.spec = spec;
    }

    public S spec() {
        return spec;
    }

    /** The operator's kind; a constant, as the operator is serialized without it. */
    protected abstract Kind kind();

    /** The calls of the stage just opened, whose {@code update} and {@code restore} fail past {@code stateBudget}. */
    protected abstract C openCalls(SidecarStage stage, long stateBudget);

    /**
     * The local directory a stage spills held state to: one of the TaskManager's io.tmp.dirs (its
     * I/O manager's directory there, removed when the TaskManager stops), picked by subtask as
     * Flink spreads its own spill files.
     */
    protected String spillDirectory() {
        String[] directories = getContainingTask().getEnvironment().getIOManager().getSpillingDirectoriesPaths();
        return directories[getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() % directories.length];
    }

    /** Reads the operator's own settings and state, before the sidecar starts and its state is restored. */
    protected abstract void initializeOwnState(StateInitializationContext context) throws Exception;

    /** Tells the stage just opened what it needs before its state is restored (nothing by default). */
    protected void stageOpened(C calls, KeyGroupRange keyGroups) {}

    /** Frees the stage answers the operator still holds, before the stage closes. */
    protected void releaseAnswers() {}

    /** Raw keyed state holds the sidecar's state; Flink must keep any timers in managed keyed state. */
    @Override
    protected boolean isUsingCustomRawKeyedState() {
        return true;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        name = spec.operatorName();
        fingerprint = spec.fingerprint();
        initializeOwnState(context);
        SidecarStateFormat format = kind().format();
        formatState = context.getOperatorStateStore().getUnionListState(
                new ListStateDescriptor<>(format.markerState(), StringSerializer.INSTANCE));
        if (context.isRestored()) {
            format.checkMarkers().accept(formatState.get(), fingerprint);
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
                    + stateBudget + " bytes) for its " + kind().state() + " state: " + e.getMessage() + "; raise"
                    + " taskmanager.memory.managed.size", e);
        }
        // Set once reserved: close releases exactly what was reserved.
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
        SidecarSettings settings = new SidecarSettings(spec.pythonExecutable(), spec.sidecarTimeout(),
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        sidecar = SidecarProcess.start(settings, SharedMemoryBudget.ofTaskManager(
                getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration()));
        try {
            stage = SidecarStage.open(sidecar, spec.descriptorJson(), allocator);
        } catch (SidecarException e) {
            throw new SidecarException(name + ": the Python sidecar refused the " + kind().operator() + ": "
                    + e.getMessage(), e);
        }
        calls = openCalls(stage, stateBudget);
        stageOpened(calls, keyGroupRange());
        log().info("{} (subtask {}): sidecar pid {} runs {} stage {} with a state budget of {} bytes", name,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), sidecar.pid(), kind().stage(), stage.id(),
                stateBudget);
    }

    @Override
    public void open() throws Exception {
        super.open();
        metrics.gauge(STATE_ENTRIES, () -> calls == null ? 0L : calls.stateEntries());
        metrics.gauge(STATE_BYTES, () -> calls == null ? 0L : calls.stateBytes());
        metrics.gauge(STATE_BUDGET_BYTES, () -> stateBudget);
    }

    /**
     * Writes the sidecar's state per key group, asking for it in pieces of at most {@code
     * accelerator.batch.max-bytes} and writing each before the next (so a state larger than the
     * operator's Arrow memory checkpoints), then the marker; a subclass first sends what it buffered.
     */
    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        SidecarStateFormat format = kind().format();
        KeyGroupRange range = keyGroupRange();
        PiecedSnapshotWriter writer = new PiecedSnapshotWriter(context.getRawKeyedOperatorStateOutput(),
                format.frames(), fingerprint, range, name);
        long pieces = 1;
        for (int piece = 0; piece < pieces; piece++) {
            try (VectorSchemaRoot rows = snapshotPiece(context.getCheckpointId(), piece)) {
                pieces = WindowAggCalls.number(rows, SidecarStateCalls.SNAPSHOT_PIECES);
                writer.write(rows, (IntVector) column(rows, SidecarStateCalls.KEY_GROUP),
                        WindowAggCalls.number(rows, SidecarStateCalls.SNAPSHOT_CONTINUES) == 1);
            }
        }
        writer.finish();
        snapshotPieces = pieces;
        formatState.update(Collections.singletonList(format.marker(fingerprint, writer.pieced())));
        log().info("{} (subtask {}): checkpoint {} wrote {} {} of key groups {} in {} pieces of at most {} bytes{}",
                name, getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), context.getCheckpointId(),
                writer.entries(), kind().entries(), range, pieces, spec.batchBytes(),
                writer.pieced() ? " (a key group larger than a piece spans pieces: state format "
                        + format.frames().pieced() + ")" : "");
    }

    private VectorSchemaRoot snapshotPiece(long checkpoint, int piece) {
        try {
            return calls.snapshot(piece, spec.batchBytes());
        } catch (SidecarException e) {
            throw new SidecarException(name + ": the sidecar failed piece " + piece + " of checkpoint " + checkpoint
                    + "'s snapshot: " + e.getMessage(), e);
        }
    }

    /**
     * Hands each restored frame's entries (a key group's, or a piece's of one that spanned pieces)
     * to the sidecar in calls of at most {@code accelerator.batch.max-bytes} (one entry at least), so
     * a large state never travels as one message; each call says whether its key group goes on in
     * the next, so the sidecar gathers a key whose entries the cut split
     * (accelerator/sidecar/restore_pieces.py).
     */
    private void restore(Iterable<KeyGroupStatePartitionStreamProvider> inputs) throws Exception {
        KeyGroupRange range = keyGroupRange();
        KeyGroupFrames frames = kind().format().frames();
        long entries = 0;
        restoreCalls = 0;
        for (KeyGroupStatePartitionStreamProvider input : inputs) {
            int keyGroup = input.getKeyGroupId();
            entries += frames.read(input.getStream(), keyGroup, fingerprint, allocator,
                    (rows, more) -> restoreFrame(rows, more, keyGroup, range, frames.version()));
        }
        log().info("{} (subtask {}): restored {} {} of key groups {} in {} calls", name,
                getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), entries, kind().entries(), range,
                restoreCalls);
    }

    /**
     * The entries of a restored frame as the stage's {@code restore} takes them: the frame's own,
     * unless the operator's frames leave out what it puts back itself (then a new root, which the
     * caller closes).
     */
    protected VectorSchemaRoot restoredEntries(VectorSchemaRoot frame, int keyGroup) {
        return frame;
    }

    /** {@code more}: the key group's entries go on in the next frame. */
    private void restoreFrame(VectorSchemaRoot frame, boolean more, int keyGroup, KeyGroupRange range, int version) {
        VectorSchemaRoot rows = restoredEntries(frame, keyGroup);
        try {
            restoreEntries(rows, more, keyGroup, range, version);
        } finally {
            if (rows != frame) {
                rows.close();
            }
        }
    }

    private void restoreEntries(VectorSchemaRoot rows, boolean more, int keyGroup, KeyGroupRange range, int version) {
        int count = rows.getRowCount();
        long bytes = rows.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
        int perCall = (int) Math.max(1, Math.min(count, spec.batchBytes() * count / Math.max(1, bytes)));
        for (int from = 0; from < count; from += perCall) {
            int to = Math.min(from + perCall, count);
            try (VectorSchemaRoot chunk = rows.slice(from, to - from)) {
                calls.restore(chunk, new SidecarStateCalls.Restore(range.getStartKeyGroup(), range.getEndKeyGroup(),
                        version, fingerprint, more || to < count));
            } catch (SidecarException e) {
                throw new SidecarException(name + ": restoring key group " + keyGroup + " failed: " + e.getMessage(),
                        e);
            }
            restoreCalls++;
        }
    }

    /** The pieces of the last snapshot (each at most {@code accelerator.batch.max-bytes}). */
    public long snapshotPieces() {
        return snapshotPieces;
    }

    /** The {@code restore} calls of the last restore (each at most {@code accelerator.batch.max-bytes}). */
    public int restoreCalls() {
        return restoreCalls;
    }

    /** The concrete operator's logger, so its lines keep its name. */
    private Logger log() {
        return LoggerFactory.getLogger(getClass());
    }

    private KeyGroupRange keyGroupRange() {
        var task = getRuntimeContext().getTaskInfo();
        return KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(task.getMaxNumberOfParallelSubtasks(),
                task.getNumberOfParallelSubtasks(), task.getIndexOfThisSubtask());
    }

    /** Whether input {@code input} (0 or 1) reads batch records of a batch exchange ({@link #batchInput}). */
    protected boolean readsBatches(int input) {
        return false;
    }

    /** A batch record has no key of its own: its rows carry theirs, and nothing reads Flink's keyed state. */
    @Override
    @SuppressWarnings("rawtypes")
    public void setKeyContextElement1(StreamRecord record) throws Exception {
        if (!readsBatches(0)) {
            super.setKeyContextElement1(record);
        }
    }

    @Override
    @SuppressWarnings("rawtypes")
    public void setKeyContextElement2(StreamRecord record) throws Exception {
        if (!readsBatches(1)) {
            super.setKeyContextElement2(record);
        }
    }

    @Override
    public boolean hasKeyContext1() {
        return !readsBatches(0) && super.hasKeyContext1();
    }

    @Override
    public boolean hasKeyContext2() {
        return !readsBatches(1) && super.hasKeyContext2();
    }

    /** What reads the batch records of a batch exchange into this subtask (open), checking their key groups. */
    protected final BatchInput batchInput(int keyArity) {
        return new BatchInput(name, allocator, keyGroupRange(), keyArity);
    }

    /** The operator's Arrow allocator (open), for batches it reads itself. */
    protected final BufferAllocator allocator() {
        return allocator;
    }

    /** The answer's column {@code column}; a missing one fails naming the stage. */
    protected final FieldVector column(VectorSchemaRoot root, String column) {
        FieldVector vector = root.getVector(column);
        if (vector == null) {
            throw new SidecarException(name + ": the " + kind().stage() + " stage's answer has no '" + column
                    + "' column: " + root.getSchema());
        }
        return vector;
    }

    /** Stops the sidecar and frees the Arrow buffers; each step runs whatever the ones before it threw. */
    @Override
    public void close() throws Exception {
        try {
            releaseAnswers();
            if (stage != null) {
                stage.close();
            }
        } catch (RuntimeException e) {
            log().warn("{}: closing the stage failed; the sidecar is stopped anyway", name, e);
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
