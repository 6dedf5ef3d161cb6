package org.flinkaccelerator.runtime;

import java.io.Serializable;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Objects;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.exchange.BatchRecords;
import org.flinkaccelerator.runtime.exchange.ExchangeTarget;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * Everything an {@link AcceleratedOperator} needs at run time, fixed at planning time: the
 * segment's name and stage descriptor, the sidecar's interpreter and the batching limits.
 *
 * @param segmentName the stage descriptor's name, {@code <source table>-to-<sink table>}
 * @param descriptorJson the stage descriptor (docs/architecture.md, "The stage contract")
 * @param pythonExecutable interpreter with the accelerator package ({@code accelerator.python.executable})
 * @param batchSize rows per batch at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param maxDelay longest a row waits in a partial batch ({@code accelerator.batch.max-delay})
 * @param sidecarTimeout longest one sidecar call may take before the sidecar counts as hung
 *     ({@code accelerator.sidecar.timeout})
 * @param heartbeatInterval how long the operator may send its sidecar nothing before it checks that
 *     the sidecar still answers ({@code accelerator.sidecar.heartbeat-interval})
 * @param coordinates where the raw source's rows carry each message's topic, partition and offset
 * @param rows for a rows stage (the descriptor has no {@code encode}), the row type the operator
 *     emits to the stock operators after it; null when it emits message bytes for a raw Kafka sink
 * @param consumes for an encode stage (the descriptor has no {@code decode}), the row type of the
 *     stock operator's rows it reads; null when it reads the rows of a raw Kafka source
 * @param keepsLoneSurrogates for an encode stage, the columns of {@code consumes} whose strings
 *     reach the sidecar's json encoder only as they are, so may carry a lone UTF-16 surrogate
 *     ({@code arrow.LoneSurrogates}); null or empty when every column refuses one
 * @param watermarks for a rows stage over a source with a pushed-down {@code WATERMARK}, how the
 *     operator generates its watermarks per Kafka split (the descriptor then has a {@code watermark}
 *     section and the raw source announces its splits); null otherwise
 * @param sideRows for a rows stage over a source several operators read, the row types of the
 *     descriptor's {@code branches}, each emitted to its side output ({@link #sideOutput}); the
 *     first branch's rows ({@code rows}) go to the main output
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit}),
 *     of the slot's managed memory for Python processes when it has some ({@code ArrowMemory})
 */
public record AcceleratedSegmentSpec(String segmentName, String descriptorJson, String pythonExecutable,
        int batchSize, long batchBytes, Duration maxDelay, Duration sidecarTimeout, Duration heartbeatInterval,
        RecordCoordinates.Layout coordinates, RowType rows, RowType consumes, BitSet keepsLoneSurrogates,
        WatermarkSpec watermarks, List<RowType> sideRows, long arrowLimit) implements Serializable {
    private static final long serialVersionUID = 8L;

    /** A stage with one output. */
    public AcceleratedSegmentSpec(String segmentName, String descriptorJson, String pythonExecutable,
            int batchSize, long batchBytes, Duration maxDelay, Duration sidecarTimeout, Duration heartbeatInterval,
            RecordCoordinates.Layout coordinates, RowType rows, RowType consumes, BitSet keepsLoneSurrogates,
            WatermarkSpec watermarks) {
        this(segmentName, descriptorJson, pythonExecutable, batchSize, batchBytes, maxDelay, sidecarTimeout,
                heartbeatInterval, coordinates, rows, consumes, keepsLoneSurrogates, watermarks, List.of(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    /** A segment that emits message bytes for a raw Kafka sink. */
    public AcceleratedSegmentSpec(String segmentName, String descriptorJson, String pythonExecutable,
            int batchSize, long batchBytes, Duration maxDelay, Duration sidecarTimeout, Duration heartbeatInterval,
            RecordCoordinates.Layout coordinates) {
        this(segmentName, descriptorJson, pythonExecutable, batchSize, batchBytes, maxDelay, sidecarTimeout,
                heartbeatInterval, coordinates, null, null, null, null);
    }

    public AcceleratedSegmentSpec {
        Objects.requireNonNull(segmentName, "segmentName");
        Objects.requireNonNull(descriptorJson, "descriptorJson");
        Objects.requireNonNull(pythonExecutable, "pythonExecutable");
        Objects.requireNonNull(coordinates, "coordinates");
        if (rows != null && consumes != null) {
            throw new IllegalArgumentException("a stage reads message bytes or emits them: not rows on both sides");
        }
        sideRows = List.copyOf(sideRows);
        if (!sideRows.isEmpty() && rows == null) {
            throw new IllegalArgumentException("only a rows stage has side outputs");
        }
        keepsLoneSurrogates = keepsLoneSurrogates == null ? new BitSet() : (BitSet) keepsLoneSurrogates.clone();
        if (consumes == null ? !keepsLoneSurrogates.isEmpty() : keepsLoneSurrogates.length() > consumes.getFieldCount()) {
            throw new IllegalArgumentException("columns " + keepsLoneSurrogates + " that keep lone surrogates are not"
                    + " columns of the rows the stage consumes");
        }
        if (watermarks != null && (rows == null || coordinates.partitionField() < 0)) {
            throw new IllegalArgumentException("only a rows stage whose raw source reads partitions generates watermarks");
        }
        SidecarLimits.check(batchSize, batchBytes, arrowLimit, sidecarTimeout);
        if (maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("accelerator.batch.max-delay must be positive, got " + maxDelay);
        }
        if (heartbeatInterval.isNegative() || heartbeatInterval.isZero()) {
            throw new IllegalArgumentException("accelerator.sidecar.heartbeat-interval must be positive, got "
                    + heartbeatInterval);
        }
    }

    /** True for a rows stage: the operator emits rows of {@link #rows}, not message bytes. */
    public boolean emitsRows() {
        return rows != null;
    }

    /**
     * The side output of branch {@code branch} (1 for the descriptor's first {@code branches}
     * entry): its tag's id names the stage and the branch, so the operator and the node that
     * selects it agree. It carries the branch's rows, or, when the branch feeds a batch exchange
     * (its {@code branches} entry has an {@code exchange} section), {@link BatchRecords}.
     */
    public OutputTag<RowData> sideOutput(int branch) {
        if (branch < 1 || branch > sideRows.size()) {
            throw new IndexOutOfBoundsException("branch " + branch + " of a stage with " + sideRows.size()
                    + " side outputs");
        }
        return new OutputTag<>(segmentName + "-branch-" + branch, InternalTypeInfo.of(
                ExchangeTarget.feedsExchange(descriptorJson, branch) ? BatchRecords.TYPE : sideRows.get(branch - 1)));
    }

    /** True for an encode stage: the operator reads rows of {@link #consumes}, not Kafka message bytes. */
    public boolean consumesRows() {
        return consumes != null;
    }

    /**
     * The row a stage that writes messages emits to its raw twin sink: value bytes, key bytes when
     * it writes keys, then the Kafka metadata columns the sink writes ({@link EncodedMessages#row}).
     */
    public RowType writtenRow() {
        return EncodedMessages.row(descriptorJson);
    }

    /** The operator's name in the job graph and the web UI. */
    public String operatorName() {
        return "Accelerated[" + segmentName + "]";
    }
}
