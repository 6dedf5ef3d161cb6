package org.flinkaccelerator.runtime;

import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;

/**
 * What an accelerated operator reports about its sidecar, in the subgroup {@value #GROUP} of the
 * operator's metric group, so an operator can check that every record went through the sidecar and
 * what it cost. Names and meanings are listed in docs/metrics.md; change both together.
 */
final class SidecarMetrics {
    static final String GROUP = "accelerator";
    static final String RECORDS_IN = "sidecarRecordsIn";
    static final String RECORDS_OUT = "sidecarRecordsOut";
    static final String RECORDS_SKIPPED = "sidecarRecordsSkipped";
    static final String RECORDS_EXACT_PATH = "sidecarRecordsExactPath";
    static final String BATCHES = "sidecarBatches";
    static final String BYTES_IN = "sidecarBytesIn";
    static final String BYTES_OUT = "sidecarBytesOut";
    static final String TIME_NANOS = "sidecarTimeNanos";
    static final String BATCH_TIME_MICROS = "sidecarBatchTimeMicros";
    static final String ARROW_BYTES = "arrowBytes";
    static final String ARROW_PEAK_BYTES = "arrowPeakBytes";
    static final String MANAGED_MEMORY_BYTES = "managedMemoryBytes";
    /**
     * Prefix of the job accumulator (one per segment: the prefix, then the segment's name) that
     * counts the records sent to the sidecars; unlike metrics it outlives the job in Flink's REST
     * API ({@code /jobs/<id>/accumulators}), so a finished job still shows them.
     */
    static final String RECORDS_IN_ACCUMULATOR = GROUP + "." + RECORDS_IN + ".";
    /** Prefix of the job accumulator (per segment, like {@link #RECORDS_IN_ACCUMULATOR}) of the skipped records. */
    static final String RECORDS_SKIPPED_ACCUMULATOR = GROUP + "." + RECORDS_SKIPPED + ".";
    /** Prefix of the job accumulator (per segment) of the messages the decoder's exact path read. */
    static final String RECORDS_EXACT_PATH_ACCUMULATOR = GROUP + "." + RECORDS_EXACT_PATH + ".";
    /**
     * Schema metadata key of the sidecar's answer: how many of the batch's messages a format's
     * 'ignore-parse-errors' skipped (absent: none).
     */
    static final String SKIPPED_METADATA = "accelerator.skipped";
    /**
     * Schema metadata key of the sidecar's answer: how many of the batch's messages its decoder's
     * fast path left to the exact (slower) path (absent: none).
     */
    static final String EXACT_PATH_METADATA = "accelerator.exact-path";
    /** Batches the histogram's percentiles are computed over. */
    static final int HISTOGRAM_WINDOW = 1024;

    private final Counter recordsIn;
    private final Counter recordsOut;
    private final Counter recordsSkipped;
    private final Counter recordsExactPath;
    private final Counter batches;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Counter timeNanos;
    private final Histogram batchTimeMicros;
    private final LongCounter recordsInTotal;
    private final LongCounter recordsSkippedTotal;
    private final LongCounter recordsExactPathTotal;
    private final MetricGroup group;

    /**
     * @param recordsInTotal the job accumulator {@link #RECORDS_IN_ACCUMULATOR} of this segment
     * @param recordsSkippedTotal the job accumulator {@link #RECORDS_SKIPPED_ACCUMULATOR} of this segment
     * @param recordsExactPathTotal the job accumulator {@link #RECORDS_EXACT_PATH_ACCUMULATOR} of this segment
     */
    SidecarMetrics(MetricGroup operatorGroup, LongCounter recordsInTotal, LongCounter recordsSkippedTotal,
            LongCounter recordsExactPathTotal) {
        this.recordsInTotal = recordsInTotal;
        this.recordsSkippedTotal = recordsSkippedTotal;
        this.recordsExactPathTotal = recordsExactPathTotal;
        group = operatorGroup.addGroup(GROUP);
        recordsIn = group.counter(RECORDS_IN);
        recordsOut = group.counter(RECORDS_OUT);
        recordsSkipped = group.counter(RECORDS_SKIPPED);
        recordsExactPath = group.counter(RECORDS_EXACT_PATH);
        batches = group.counter(BATCHES);
        bytesIn = group.counter(BYTES_IN);
        bytesOut = group.counter(BYTES_OUT);
        timeNanos = group.counter(TIME_NANOS);
        batchTimeMicros = group.histogram(BATCH_TIME_MICROS, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
    }

    /**
     * Reports the Arrow memory the operator's buffers hold now and at most so far, and the managed
     * memory the slot reserved for them ({@code managedBytes}, shared by the slot's accelerated
     * operators; 0 when the buffers are outside Flink's budget).
     */
    void arrowMemory(BufferAllocator allocator, long managedBytes) {
        group.gauge(ARROW_BYTES, (Gauge<Long>) allocator::getAllocatedMemory);
        group.gauge(ARROW_PEAK_BYTES, (Gauge<Long>) allocator::getPeakMemoryAllocation);
        group.gauge(MANAGED_MEMORY_BYTES, (Gauge<Long>) () -> managedBytes);
    }

    /** Records one batch the sidecar answered: what went in, what came back (every output of a rows stage), how long the call took. */
    void batch(VectorSchemaRoot sent, List<VectorSchemaRoot> received, long nanos) {
        batches.inc();
        recordsIn.inc(sent.getRowCount());
        recordsInTotal.add(sent.getRowCount());
        long skipped = counted(received.get(0), SKIPPED_METADATA);
        recordsSkipped.inc(skipped);
        recordsSkippedTotal.add(skipped);
        long exactPath = counted(received.get(0), EXACT_PATH_METADATA);
        recordsExactPath.inc(exactPath);
        recordsExactPathTotal.add(exactPath);
        bytesIn.inc(dataBytes(sent));
        for (VectorSchemaRoot output : received) {
            recordsOut.inc(output.getRowCount());
            bytesOut.inc(dataBytes(output));
        }
        timeNanos.inc(nanos);
        batchTimeMicros.update(nanos / 1_000);
    }

    /** The messages of the batch the answer's schema metadata {@code key} counts (absent: none). */
    static long counted(VectorSchemaRoot received, String key) {
        Map<String, String> metadata = received.getSchema().getCustomMetadata();
        String count = metadata == null ? null : metadata.get(key);
        return count == null ? 0 : Long.parseLong(count);
    }

    /** Payload bytes of the variable-width (binary, string) columns, as their offsets say; no buffers' slack. */
    static long dataBytes(VectorSchemaRoot root) {
        int rows = root.getRowCount();
        long total = 0;
        List<FieldVector> vectors = root.getFieldVectors();
        for (FieldVector vector : vectors) {
            if (rows > 0 && vector instanceof BaseVariableWidthVector variable) {
                total += variable.getStartOffset(rows) - variable.getStartOffset(0);
            }
        }
        return total;
    }
}
