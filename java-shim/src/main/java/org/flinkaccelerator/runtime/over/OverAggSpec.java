package org.flinkaccelerator.runtime.over;

import java.time.Duration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedOverAggOperator} needs at run time, fixed at planning time: the
 * over_agg descriptor ({@code OverAggExport}), the operator's input rows, and the sidecar settings
 * the other accelerated operators use. No max delay: nothing leaves the operator between
 * watermarks, so a partial batch waits for the next watermark, barrier or the end of the input.
 *
 * @param descriptorJson the over_agg stage descriptor
 * @param inputType the operator's input rows (the exec node's input)
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record OverAggSpec(String descriptorJson, RowType inputType, String pythonExecutable, int batchSize,
        long batchBytes, Duration sidecarTimeout, long arrowLimit) implements SidecarStateSpec {
    private static final long serialVersionUID = 1L;
    static final String KIND = "over_agg";
    /** The transport columns before the input row: the key's bytes, its key group and the rowtime in epoch millis. */
    static final int TRANSPORT_COLUMNS = 3;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public OverAggSpec(String descriptorJson, RowType inputType, String pythonExecutable) {
        this(descriptorJson, inputType, pythonExecutable, AcceleratorOptions.BATCH_SIZE.defaultValue(),
                AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public OverAggSpec {
        JsonNode descriptor = ChangelogSpec.checkSettings(descriptorJson, KIND, pythonExecutable, batchSize, batchBytes,
                AcceleratorOptions.BATCH_MAX_DELAY.defaultValue(), sidecarTimeout, arrowLimit);
        StateStageDescriptor.checkStateAndInput(descriptor, TRANSPORT_COLUMNS, inputType);
        if (StateStageDescriptor.argumentNames(descriptor, TRANSPORT_COLUMNS).size() != inputType.getFieldCount()) {
            throw new IllegalArgumentException("the over_agg descriptor's input row is not the whole input " + inputType);
        }
        if (!inputType.getFieldNames().contains(descriptor.path("rowtime").asText())) {
            throw new IllegalArgumentException("the over_agg descriptor's rowtime " + descriptor.path("rowtime")
                    + " is not a field of " + inputType);
        }
    }

    JsonNode descriptor() {
        return StateStageDescriptor.parse(descriptorJson, KIND);
    }

    @Override
    public String operatorName() {
        return "Accelerated[" + descriptor().path("name").asText() + "]";
    }

    @Override
    public String fingerprint() {
        return descriptor().path("state").path("fingerprint").asText();
    }

    /** {@code $key}, {@code $key_group}, {@code $time}, then the input row. */
    @Override
    public RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /** The input field whose {@code getLong} is a row's timestamp, as stock reads it. */
    public int rowtimeIndex() {
        return inputType.getFieldNames().indexOf(descriptor().path("rowtime").asText());
    }

    /** The output row: the input row, then the aggregate values (time attributes as plain timestamps). */
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }
}
