package org.flinkaccelerator.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.TimestampAssigner;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.apache.flink.util.IOUtils;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.runtime.exchange.BatchParts;
import org.flinkaccelerator.runtime.exchange.ExchangeTarget;
import org.flinkaccelerator.runtime.watermarks.WatermarkedRows;
import org.flinkaccelerator.sidecar.SharedMemoryBudget;
import org.flinkaccelerator.sidecar.SidecarException;
import org.flinkaccelerator.sidecar.SidecarProcess;
import org.flinkaccelerator.sidecar.SidecarSettings;
import org.flinkaccelerator.sidecar.SidecarStage;
import org.flinkaccelerator.sidecar.StageFailedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one accelerated segment in the TaskManager: collects the Kafka message values it receives
 * (rows of one BYTES column, from a source whose value format is {@code raw}) into Arrow batches,
 * sends each batch through its own Python sidecar, and emits one row (the value BYTES, then the
 * key BYTES when the sink writes keys, for a {@code raw} sink) per message the sidecar returns.
 * An encode stage ({@link AcceleratedSegmentSpec#consumesRows()}) collects instead the rows of
 * the stock operator before it, which the sidecar encodes as messages for the raw sink; each
 * message keeps the change kind of its row (an upsert sink's twin turns a DELETE into a tombstone).
 * A rows stage ({@link AcceleratedSegmentSpec#emitsRows()}) emits instead the sidecar's result
 * rows themselves, as {@code ArrowRowData} views over the returned Arrow columns (no field
 * is copied), each with the record timestamp of the message it came from; over a watermarked
 * source it also generates the source's watermarks, per Kafka split ({@code watermarks.WatermarkedRows}).
 *
 * <p>A batch is sent when it reaches {@code batchSize} rows or {@code batchBytes} bytes, when its first row has waited
 * {@code maxDelay}, before a watermark is forwarded, before a checkpoint barrier and at end of
 * input, so no row is in flight across a barrier or behind a watermark. A sidecar failure fails
 * the task, naming the segment, so Flink's restart strategy applies. While no batch is sent, a
 * heartbeat checks every {@code heartbeatInterval} that the sidecar still answers, so one that
 * hangs while the input is idle fails the task too rather than the next batch, much later.
 */
public final class AcceleratedOperator extends AbstractStreamOperator<RowData>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(AcceleratedOperator.class);

    private final AcceleratedSegmentSpec spec;

    private transient ArrowMemory arrowMemory;
    private transient BufferAllocator allocator;
    private transient SidecarProcess sidecar;
    private transient SidecarStage stage;
    private transient InputBatch batch;
    private transient RecordCoordinates coordinates;
    private transient MessageTimestamps timestamps;
    /** Per output of a rows stage, whether it carries a folded local window aggregate's partials (no timestamps). */
    private transient boolean[] partialOutputs;
    /** Emits the messages of a stage that writes them (not a rows stage): value, key when written, written metadata. */
    private transient EncodedMessages messages;
    /** Per output of a rows stage (main, then side outputs): copies each emitted row when object reuse lets the next operator keep it (else null). */
    private transient List<RowDataSerializer> rowCopiers;
    private transient ScheduledFuture<?> delayTimer;
    private transient long batches;
    private transient long batchesAtLastHeartbeat;
    private transient SidecarMetrics metrics;
    /** A rows stage's watermarks, when it replaces a watermarked source; else null. */
    private transient WatermarkedRows watermarked;
    /** Per output of a rows stage (main, then side outputs): the side output's tag (null for the main output). */
    private transient List<OutputTag<RowData>> sideOutputs;
    /** Per output of a rows stage: the batch exchange it feeds, or null where its rows go out one by one. */
    private transient BatchParts[] parts;

    public AcceleratedOperator(AcceleratedSegmentSpec spec) {
        this.spec = spec;
    }

    public AcceleratedSegmentSpec spec() {
        return spec;
    }

    @Override
    public void open() throws Exception {
        super.open();
        arrowMemory = ArrowMemory.open(spec.operatorName() + "#" + getRuntimeContext().getTaskInfo()
                .getIndexOfThisSubtask(), getContainingTask().getEnvironment().getMemoryManager(),
                pythonFraction(), spec.arrowLimit());
        allocator = arrowMemory.allocator();
        batch = spec.consumesRows() ? new RowsBatch(spec.consumes(), spec.keepsLoneSurrogates(), allocator)
                : new ValueBatch(allocator, MetadataColumns.create(spec.descriptorJson(), allocator));
        coordinates = new RecordCoordinates(spec.coordinates());
        timestamps = new MessageTimestamps();
        messages = spec.emitsRows() ? null : new EncodedMessages(spec.operatorName(), spec.writtenRow());
        // Emitted rows are views of the sidecar's batch. Without object reuse Flink copies them
        // before the next operator sees them; with it, that operator may keep the row itself, as
        // it may keep a stock decoder's, so it gets a copy of its own.
        rowCopiers = new ArrayList<>();
        for (RowType rowType : outputRows()) {
            rowCopiers.add(getExecutionConfig().isObjectReuseEnabled() ? new RowDataSerializer(rowType) : null);
        }
        partialOutputs = LocalPhaseOutputs.of(spec.descriptorJson(), outputRows().size());
        LongCounter recordsInTotal = new LongCounter();
        getRuntimeContext().addAccumulator(SidecarMetrics.RECORDS_IN_ACCUMULATOR + spec.segmentName(), recordsInTotal);
        LongCounter recordsSkippedTotal = new LongCounter();
        getRuntimeContext().addAccumulator(SidecarMetrics.RECORDS_SKIPPED_ACCUMULATOR + spec.segmentName(),
                recordsSkippedTotal);
        LongCounter recordsExactPathTotal = new LongCounter();
        getRuntimeContext().addAccumulator(SidecarMetrics.RECORDS_EXACT_PATH_ACCUMULATOR + spec.segmentName(),
                recordsExactPathTotal);
        metrics = new SidecarMetrics(getMetricGroup(), recordsInTotal, recordsSkippedTotal, recordsExactPathTotal);
        metrics.arrowMemory(allocator, arrowMemory.managedBytes());
        SidecarSettings settings = new SidecarSettings(spec.pythonExecutable(), spec.sidecarTimeout(),
                SidecarSettings.DEFAULT_START_TIMEOUT,
                SidecarSettings.requestRegionBytes(spec.batchBytes(), spec.batchSize()));
        String descriptorJson = spec.descriptorJson();
        sideOutputs = new ArrayList<>();
        parts = new BatchParts[outputRows().size()];
        boolean batched = false;
        for (int b = 0; b < parts.length; b++) {
            OutputTag<RowData> tag = b == 0 ? null : spec.sideOutput(b);
            sideOutputs.add(tag);
            if (ExchangeTarget.feedsExchange(descriptorJson, b)) {
                ExchangeTarget target = ExchangeTarget.of(spec.operatorName(), tag, getOperatorConfig(),
                        getUserCodeClassloader(), getContainingTask().getEnvironment().getAllWriters());
                descriptorJson = target.into(descriptorJson, b);
                parts[b] = new BatchParts(spec.operatorName(), allocator, output, tag, target.parallelism());
                batched = true;
            }
        }
        sidecar = SidecarProcess.start(settings, SharedMemoryBudget.ofTaskManager(
                getContainingTask().getEnvironment().getTaskManagerInfo().getConfiguration()));
        try {
            stage = SidecarStage.open(sidecar, descriptorJson, allocator);
        } catch (SidecarException e) {
            throw new SidecarException(spec.operatorName() + ": the Python sidecar refused the segment: "
                    + e.getMessage(), e);
        }
        if (spec.watermarks() != null) {
            watermarked = new WatermarkedRows(spec.watermarks(), spec.coordinates(), output, getMetricGroup(),
                    getProcessingTimeService(), getExecutionConfig().getAutoWatermarkInterval(),
                    getContainingTask().getEnvironment().getMetricGroup().getIOMetricGroup());
            if (batched) {
                watermarked.beforeEvents(this::releaseParts);
            }
        }
        LOG.info("{} (subtask {}): sidecar pid {} runs stage {}; batches of up to {} rows, at most {} ms apart;"
                + " Arrow buffers up to {} bytes, of {} bytes of the slot's managed memory",
                spec.operatorName(), getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(), sidecar.pid(),
                stage.id(), spec.batchSize(), spec.maxDelay().toMillis(), allocator.getLimit(),
                arrowMemory.managedBytes());
        scheduleHeartbeat();
    }

    /**
     * The fraction of the slot's managed memory Flink gives this operator's PYTHON use case: the
     * use case's weight among those of the slot (taskmanager.memory.managed.consumer-weights).
     */
    private double pythonFraction() {
        Environment environment = getContainingTask().getEnvironment();
        return getOperatorConfig().getManagedMemoryFractionOperatorUseCaseOfSlot(ManagedMemoryUseCase.PYTHON,
                environment.getJobConfiguration(), environment.getTaskManagerInfo().getConfiguration(),
                getUserCodeClassloader());
    }

    /** The operator's Arrow allocator (tests). */
    BufferAllocator allocator() {
        return allocator;
    }

    private void scheduleHeartbeat() {
        long due = getProcessingTimeService().getCurrentProcessingTime() + spec.heartbeatInterval().toMillis();
        getProcessingTimeService().registerTimer(due, time -> heartbeat());
    }

    /** Checks that an idle sidecar still answers; a batch sent since the last heartbeat showed it did. */
    private void heartbeat() {
        if (sidecar == null) {
            return;
        }
        if (batches == batchesAtLastHeartbeat) {
            try {
                sidecar.checkAnswers();
            } catch (SidecarException e) {
                throw new SidecarException(spec.operatorName() + ": idle for "
                        + spec.heartbeatInterval().toMillis() + " ms (accelerator.sidecar.heartbeat-interval), its"
                        + " sidecar failed a liveness check: " + e.getMessage(), e);
            }
        }
        batchesAtLastHeartbeat = batches;
        scheduleHeartbeat();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        if (watermarked != null) {
            if (watermarked.isMarker(element.getValue())) {
                // A split comes or goes: as in Flink's source, after every message read before it.
                flush();
                watermarked.marker(element.getValue());
                return;
            }
            watermarked.set(batch.rows(), element.getValue());
        }
        coordinates.set(batch.rows(), element.getValue());
        timestamps.set(batch.rows(), element);
        try {
            batch.append(element.getValue());
        } catch (OutOfMemoryException e) {
            SidecarException failure = arrowLimitReached("holding a batch of " + batch.rows() + " messages for the"
                    + " sidecar", e);
            batch.clear();  // the task fails: give the memory back now, send nothing half-appended
            throw failure;
        } catch (IllegalArgumentException e) {
            throw new SidecarException(spec.operatorName() + ": cannot hand a row of the operator before it to the"
                    + " sidecar: " + e.getMessage() + ". Run this job without the accelerator"
                    + " (accelerator.enabled: false) to write it as stock Flink does", e);
        }
        if (batch.rows() >= spec.batchSize() || batch.bytes() >= spec.batchBytes()) {
            flush();
        } else if (batch.rows() == 1) {
            scheduleDelayFlush();
        }
    }

    private void scheduleDelayFlush() {
        long due = getProcessingTimeService().getCurrentProcessingTime() + spec.maxDelay().toMillis();
        delayTimer = getProcessingTimeService().registerTimer(due, time -> flush());
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        flush();
        if (watermarked != null) {
            // The raw source has no watermarks of its own: this is its final one, at end of input.
            watermarked.end();
        }
        super.processWatermark(mark);
    }

    @Override
    public void processWatermarkStatus(WatermarkStatus status) throws Exception {
        // A watermarked rows stage announces its own idleness, as the source it replaces did.
        if (watermarked == null) {
            super.processWatermarkStatus(status);
        }
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        flush();
        super.prepareSnapshotPreBarrier(checkpointId);
    }

    @Override
    public void endInput() throws Exception {
        flush();
        if (watermarked != null) {
            watermarked.end();
        }
    }

    @Override
    public void finish() throws Exception {
        flush();
        super.finish();
    }

    /** Sends the pending rows through the sidecar and emits what comes back; nothing pending = nothing. */
    private void flush() {
        if (delayTimer != null) {
            delayTimer.cancel(false);
            delayTimer = null;
        }
        if (batch == null || batch.isEmpty()) {
            return;
        }
        int rows = batch.rows();
        byte[] kinds = batch.changeKinds();
        long sequence = ++batches;
        SidecarStage.RowsAnswer answer = null;
        VectorSchemaRoot result = null;
        try {
            long started = System.nanoTime();
            if (spec.emitsRows()) {
                answer = stage.processRows(batch.root(), 1 + spec.sideRows().size(), watermarked != null);
                metrics.batch(batch.root(), answer.branches(), System.nanoTime() - started);
            } else {
                result = stage.process(batch.root());
                metrics.batch(batch.root(), List.of(result), System.nanoTime() - started);
            }
        } catch (StageFailedException e) {
            String where = e.row().isPresent() ? " at message " + e.row().getAsInt() + " of the batch"
                    + from(e.row().getAsInt()) : "";
            throw new SidecarException(spec.operatorName() + ": batch " + sequence + " of " + rows
                    + " messages failed" + where + ": " + e.getMessage(), e);
        } catch (SidecarException e) {
            throw new SidecarException(spec.operatorName() + ": batch " + sequence + " of " + rows
                    + " messages failed: " + e.getMessage(), e);
        } catch (OutOfMemoryException e) {
            throw arrowLimitReached("reading the sidecar's answer to batch " + sequence + " of " + rows + " messages", e);
        } finally {
            batch.clear();
        }
        try (SidecarStage.RowsAnswer rowsAnswer = answer; VectorSchemaRoot messages = result) {
            if (rowsAnswer != null) {
                emitRows(rowsAnswer, rows);
            } else {
                emit(messages, kinds, sequence);
            }
        }
    }

    private SidecarException arrowLimitReached(String doing, OutOfMemoryException e) {
        return new SidecarException(spec.operatorName() + ": " + arrowMemory.limitReached(doing), e);
    }

    /** The row types a rows stage emits: its main output's, then each side output's. */
    private List<RowType> outputRows() {
        if (!spec.emitsRows()) {
            return List.of();
        }
        List<RowType> types = new ArrayList<>(List.of(spec.rows()));
        types.addAll(spec.sideRows());
        return types;
    }

    /**
     * Emits a rows stage's answer for a batch of {@code messages} messages, message by message:
     * each message's rows of every output in turn (main, then side outputs), each with its
     * message's record timestamp; with marks (a watermarked rows stage), through the source's
     * event-time logic. An output that feeds a batch exchange sends instead, per subtask, the rows
     * of the messages replayed so far, before each watermark and at the end ({@link BatchParts}).
     */
    private void emitRows(SidecarStage.RowsAnswer answer, int messages) {
        List<RowType> types = outputRows();
        BranchRows[] branches = new BranchRows[types.size()];
        try {
            for (int b = 0; b < types.size(); b++) {
                if (parts[b] != null) {
                    parts[b].start(answer.branches().get(b), messages);
                } else {
                    branches[b] = new BranchRows(answer.branches().get(b), types.get(b), sideOutputs.get(b),
                            rowCopiers.get(b), partialOutputs[b], spec.operatorName());
                }
            }
            if (answer.marks() != null) {
                watermarked.emit(answer.marks(), messages, m -> timestamps.get(m, TimestampAssigner.NO_TIMESTAMP),
                        (message, stamped) -> {
                            for (int b = 0; b < branches.length; b++) {
                                if (branches[b] != null) {
                                    branches[b].emit(message, output, r -> r.setTimestamp(stamped.getTimestamp()));
                                } else {
                                    parts[b].stamp(message, stamped.hasTimestamp(), stamped.getTimestamp());
                                }
                            }
                        });
            } else {
                for (int message = 0; message < messages; message++) {
                    int m = message;
                    for (int b = 0; b < branches.length; b++) {
                        if (branches[b] != null) {
                            branches[b].emit(m, output, r -> timestamps.stamp(r, m));
                        } else {
                            parts[b].stamp(m, timestamps.has(m), timestamps.get(m, 0L));
                        }
                    }
                }
            }
            for (int b = 0; b < branches.length; b++) {
                if (branches[b] != null) {
                    branches[b].finish(messages);
                } else {
                    parts[b].finish();
                }
            }
        } catch (IllegalArgumentException e) {
            abandonParts();
            throw new SidecarException(spec.operatorName() + ": the sidecar's answer breaks the stage contract: "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            abandonParts();
            throw e;
        }
    }

    /** Sends, for each output feeding a batch exchange, the rows replayed so far: before a watermark or status. */
    private void releaseParts() {
        for (BatchParts part : parts) {
            if (part != null) {
                part.release();
            }
        }
    }

    private void abandonParts() {
        for (BatchParts part : parts) {
            if (part != null) {
                part.abandon();
            }
        }
    }

    /** " (topic 't', partition p, offset o)" of a message of the pending batch, or "" when unknown. */
    private String from(int message) {
        String where = coordinates.describe(message);
        return where.isEmpty() ? "" : " (" + where + ")";
    }

    /**
     * Emits one row per message of the sidecar's answer, for the raw twin sink; with
     * {@code kinds} (the batch held updates or deletes), message i gets the change kind of input
     * row i, so an upsert twin writes a tombstone for a DELETE or UPDATE_BEFORE as stock does.
     */
    private void emit(VectorSchemaRoot result, byte[] kinds, long sequence) {
        int count = result.getRowCount();
        if (kinds != null && kinds.length != count) {
            throw new SidecarException(spec.operatorName() + ": the sidecar answered batch " + sequence + " of "
                    + kinds.length + " rows, some of them updates or deletes, with " + count + " messages; each row"
                    + " must give one message to carry its change kind (the planner keeps filtering Calcs before"
                    + " an upsert sink stock). Run this job without the accelerator (accelerator.enabled: false)");
        }
        messages.emit(result, i -> kinds == null ? RowKind.INSERT : RowKind.fromByteValue(kinds[i]), output);
    }

    /**
     * Stops the sidecar and frees the Arrow buffers, then the operator's lease on the slot's
     * managed memory. Flink calls it after a failure too (also of {@link #open}); each step runs
     * whatever the ones before it threw.
     */
    @Override
    public void close() throws Exception {
        if (watermarked != null) {
            watermarked.end();
            watermarked = null;
        }
        try {
            if (stage != null) {
                stage.close();
            }
        } catch (RuntimeException e) {
            LOG.warn("{}: closing the stage failed; the sidecar is stopped anyway", spec.operatorName(), e);
        } finally {
            AutoCloseable[] resources = {sidecar, batch, arrowMemory, super::close};
            stage = null;
            sidecar = null;
            batch = null;
            allocator = null;
            arrowMemory = null;
            IOUtils.closeAll(resources);
        }
    }
}
