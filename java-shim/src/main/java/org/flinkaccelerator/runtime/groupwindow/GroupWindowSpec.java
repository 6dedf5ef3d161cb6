package org.flinkaccelerator.runtime.groupwindow;

import java.time.Duration;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedGroupWindowOperator} needs at run time, fixed at planning time:
 * the group_window descriptor ({@code GroupWindowExport}), the operator's input rows and where its
 * rowtime is, and the sidecar settings the other accelerated operators use. No max delay: nothing
 * leaves the operator between watermarks, so a partial batch waits for the next watermark,
 * barrier or the end of the input.
 *
 * @param descriptorJson the group_window stage descriptor
 * @param inputType the operator's input rows (the exec node's input)
 * @param rowtimeIndex the input field of the window's event-time attribute; -1 for a processing-time window
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record GroupWindowSpec(String descriptorJson, RowType inputType, int rowtimeIndex, String pythonExecutable,
        int batchSize, long batchBytes, Duration sidecarTimeout, long arrowLimit) implements SidecarStateSpec {
    private static final long serialVersionUID = 1L;
    static final String KIND = "group_window";
    /**
     * The transport columns before the arguments: the key's bytes, its key group and the row's time in
     * epoch millis (its rowtime, or the processing time at which it arrived).
     */
    static final int TRANSPORT_COLUMNS = 3;
    /** The descriptor's {@code window.time} of a processing-time window (an event-time one has none). */
    public static final String PROCESSING_TIME = "processing";

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public GroupWindowSpec(String descriptorJson, RowType inputType, int rowtimeIndex, String pythonExecutable) {
        this(descriptorJson, inputType, rowtimeIndex, pythonExecutable, AcceleratorOptions.BATCH_SIZE.defaultValue(),
                AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public GroupWindowSpec {
        JsonNode descriptor = ChangelogSpec.checkSettings(descriptorJson, KIND, pythonExecutable, batchSize, batchBytes,
                AcceleratorOptions.BATCH_MAX_DELAY.defaultValue(), sidecarTimeout, arrowLimit);
        StateStageDescriptor.checkStateAndInput(descriptor, TRANSPORT_COLUMNS, inputType);
        boolean processingTime = processingTime(descriptor);
        if (processingTime ? rowtimeIndex != -1 : rowtimeIndex < 0 || rowtimeIndex >= inputType.getFieldCount()) {
            throw new IllegalArgumentException("rowtime field " + rowtimeIndex + " is not "
                    + (processingTime ? "-1 for a processing-time window" : "a field of " + inputType));
        }
    }

    private static boolean processingTime(JsonNode descriptor) {
        return PROCESSING_TIME.equals(descriptor.path("window").path("time").asText());
    }

    /**
     * Whether the window is over processing time: each row's time is the processing time when it
     * arrives, not a rowtime field, and the windows fire at processing-time timers.
     */
    public boolean processingTime() {
        return processingTime(descriptor());
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

    /**
     * Whether the input arrives as batch records of a batch exchange ({@code runtime/exchange}), their
     * rows already the stage's {@code update} rows, instead of one row per record.
     */
    public boolean batchedInput() {
        return ChangelogSpec.BATCHED.equals(descriptor().path(ChangelogSpec.EXCHANGE).asText());
    }

    /** {@code $key}, {@code $key_group}, {@code $time}, then the arguments. */
    @Override
    public RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /** The input fields (indexes into {@link #inputType}) sent after the transport columns, in order. */
    public int[] argumentIndexes() {
        return StateStageDescriptor.argumentNames(descriptor(), TRANSPORT_COLUMNS).stream()
                .mapToInt(n -> inputType.getFieldNames().indexOf(n)).toArray();
    }

    public int keyArity() {
        return descriptor().path("keys").size();
    }

    /** What follows the key in an output row: the aggregate values, then the window properties. */
    public RowType valuesType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), keyArity());
    }

    /** The operator's output row: the key fields, then {@link #valuesType()}. */
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }
}
