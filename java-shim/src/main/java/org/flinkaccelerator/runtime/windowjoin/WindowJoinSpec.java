package org.flinkaccelerator.runtime.windowjoin;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.SidecarLimits;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedWindowJoinOperator} needs at run time, fixed at planning time:
 * the window_join descriptor, both inputs' rows, where each holds its window end, the time zone
 * stock's timers shift window ends by, and the sidecar settings the other accelerated operators use.
 *
 * @param descriptorJson the window_join stage descriptor
 * @param leftType the left input's rows
 * @param rightType the right input's rows
 * @param leftWindowEnd the left row's window_end field
 * @param rightWindowEnd the right row's window_end field
 * @param shiftTimeZone stock's {@code TimeWindowUtil.getShiftTimeZone} for the window's time attribute
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record WindowJoinSpec(String descriptorJson, RowType leftType, RowType rightType, int leftWindowEnd,
        int rightWindowEnd, ZoneId shiftTimeZone, String pythonExecutable, int batchSize, long batchBytes,
        Duration sidecarTimeout, long arrowLimit) implements SidecarStateSpec {
    private static final long serialVersionUID = 1L;
    public static final String KIND = "window_join";
    /** A batch row's columns before the joined row's: {@code $key}, {@code $key_group}, {@code $side}, {@code $window_end}, {@code $trigger}. */
    static final int TRANSPORT_COLUMNS = 5;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public WindowJoinSpec(String descriptorJson, RowType leftType, RowType rightType, int leftWindowEnd,
            int rightWindowEnd, ZoneId shiftTimeZone, String pythonExecutable) {
        this(descriptorJson, leftType, rightType, leftWindowEnd, rightWindowEnd, shiftTimeZone, pythonExecutable,
                AcceleratorOptions.BATCH_SIZE.defaultValue(), AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(), AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public WindowJoinSpec {
        Objects.requireNonNull(descriptorJson, "descriptorJson");
        Objects.requireNonNull(leftType, "leftType");
        Objects.requireNonNull(rightType, "rightType");
        Objects.requireNonNull(shiftTimeZone, "shiftTimeZone");
        Objects.requireNonNull(pythonExecutable, "pythonExecutable");
        SidecarLimits.check(batchSize, batchBytes, arrowLimit, sidecarTimeout);
        JsonNode descriptor = StateStageDescriptor.parse(descriptorJson, KIND);
        StateStageDescriptor.checkKind(descriptor, KIND);
        if (descriptor.path("state").path("fingerprint").asText().length() != 64) {
            throw new IllegalArgumentException("the window_join descriptor has no 64-digit state.fingerprint");
        }
        List<LogicalType> inputs = new ArrayList<>(leftType.getChildren());
        inputs.addAll(rightType.getChildren());
        RowType row = StateStageDescriptor.fieldsType(descriptor.path("input").path("fields"), TRANSPORT_COLUMNS);
        if (!row.getChildren().equals(inputs.stream().map(t -> t.copy(true)).toList())) {
            throw new IllegalArgumentException("the window_join descriptor's input columns " + row + " are not the"
                    + " left input's " + leftType + " then the right input's " + rightType + ", each nullable");
        }
    }

    public JsonNode descriptor() {
        return StateStageDescriptor.parse(descriptorJson, KIND);
    }

    public String name() {
        return descriptor().path("name").asText();
    }

    @Override
    public String operatorName() {
        return "Accelerated[" + name() + "]";
    }

    @Override
    public String fingerprint() {
        return descriptor().path("state").path("fingerprint").asText();
    }

    /** The left input's fields, then the right input's: what a batch row carries after the transport columns. */
    @Override
    public RowType inputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), TRANSPORT_COLUMNS);
    }

    @Override
    public RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /** What a fire answer carries after {@code $key} and {@code $window_end}, per output row: the operator's output. */
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }
}
