package org.flinkaccelerator.runtime;

import java.util.List;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.metrics.Counter;
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
    static final String BATCHES = "sidecarBatches";
    static final String BYTES_IN = "sidecarBytesIn";
    static final String BYTES_OUT = "sidecarBytesOut";
    static final String TIME_NANOS = "sidecarTimeNanos";
    static final String BATCH_TIME_MICROS = "sidecarBatchTimeMicros";
    /**
     * Prefix of the job accumulator (one per segment: the prefix, then the segment's name) that
     * counts the records sent to the sidecars; unlike metrics it outlives the job in Flink's REST
     * API ({@code /jobs/<id>/accumulators}), so a finished job still shows them.
     */
    static final String RECORDS_IN_ACCUMULATOR = GROUP + "." + RECORDS_IN + ".";
    /** Batches the histogram's percentiles are computed over. */
    static final int HISTOGRAM_WINDOW = 1024;

    private final Counter recordsIn;
    private final Counter recordsOut;
    private final Counter batches;
    private final Counter bytesIn;
    private final Counter bytesOut;
    private final Counter timeNanos;
    private final Histogram batchTimeMicros;
    private final LongCounter recordsInTotal;

    /** @param recordsInTotal the job accumulator {@link #RECORDS_IN_ACCUMULATOR} of this segment */
    SidecarMetrics(MetricGroup operatorGroup, LongCounter recordsInTotal) {
        this.recordsInTotal = recordsInTotal;
        MetricGroup group = operatorGroup.addGroup(GROUP);
        recordsIn = group.counter(RECORDS_IN);
        recordsOut = group.counter(RECORDS_OUT);
        batches = group.counter(BATCHES);
        bytesIn = group.counter(BYTES_IN);
        bytesOut = group.counter(BYTES_OUT);
        timeNanos = group.counter(TIME_NANOS);
        batchTimeMicros = group.histogram(BATCH_TIME_MICROS, new DescriptiveStatisticsHistogram(HISTOGRAM_WINDOW));
    }

    /** Records one batch the sidecar answered: what went in, what came back, how long the call took. */
    void batch(VectorSchemaRoot sent, VectorSchemaRoot received, long nanos) {
        batches.inc();
        recordsIn.inc(sent.getRowCount());
        recordsInTotal.add(sent.getRowCount());
        recordsOut.inc(received.getRowCount());
        bytesIn.inc(dataBytes(sent));
        bytesOut.inc(dataBytes(received));
        timeNanos.inc(nanos);
        batchTimeMicros.update(nanos / 1_000);
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
