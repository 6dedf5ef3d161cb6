package org.flinkaccelerator.runtime.groupagg;

import java.time.Duration;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.SidecarLimits;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedGroupAggOperator} needs at run time, fixed at planning time:
 * the group_agg descriptor ({@code GroupAggExport}), the operator's input rows, and the sidecar
 * settings the other accelerated operators use.
 *
 * @param descriptorJson the group_agg stage descriptor
 * @param inputType the operator's input rows (the exec node's input)
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param maxDelay longest a row waits in a partial batch ({@code accelerator.batch.max-delay})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record GroupAggSpec(String descriptorJson, RowType inputType, String pythonExecutable, int batchSize,
        long batchBytes, Duration maxDelay, Duration sidecarTimeout, long arrowLimit) implements SidecarStateSpec {
    private static final long serialVersionUID = 1L;
    /** The transport columns before the arguments: the key's bytes and its key group. */
    static final int TRANSPORT_COLUMNS = 2;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public GroupAggSpec(String descriptorJson, RowType inputType, String pythonExecutable) {
        this(descriptorJson, inputType, pythonExecutable, AcceleratorOptions.BATCH_SIZE.defaultValue(),
                AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.BATCH_MAX_DELAY.defaultValue(), AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public GroupAggSpec {
        Objects.requireNonNull(descriptorJson, "descriptorJson");
        Objects.requireNonNull(inputType, "inputType");
        Objects.requireNonNull(pythonExecutable, "pythonExecutable");
        SidecarLimits.check(batchSize, batchBytes, arrowLimit, sidecarTimeout);
        if (maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("accelerator.batch.max-delay must be positive, got " + maxDelay);
        }
        JsonNode descriptor = StateStageDescriptor.parse(descriptorJson, "group_agg");
        StateStageDescriptor.checkKind(descriptor, "group_agg");
        StateStageDescriptor.checkStateAndInput(descriptor, TRANSPORT_COLUMNS, inputType);
    }

    private JsonNode descriptor() {
        return StateStageDescriptor.parse(descriptorJson, "group_agg");
    }

    public String name() {
        return descriptor().path("name").asText();
    }

    /** The descriptor's state fingerprint (64 hex digits): what the state format guards. */
    public String fingerprint() {
        return descriptor().path("state").path("fingerprint").asText();
    }

    public int keyArity() {
        return descriptor().path("keys").size();
    }

    /** The input fields (indexes into {@link #inputType}) sent after the transport columns, in order. */
    public int[] argumentIndexes() {
        return StateStageDescriptor.argumentNames(descriptor(), TRANSPORT_COLUMNS).stream()
                .mapToInt(n -> inputType.getFieldNames().indexOf(n)).toArray();
    }

    /** The row of one {@code update} batch: {@code $key}, {@code $key_group}, then the arguments. */
    public RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /** What follows the key in an output row: the aggregate values. */
    public RowType valuesType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), keyArity());
    }

    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }

    /** The operator's name in the job graph and the web UI. */
    public String operatorName() {
        return "Accelerated[" + name() + "]";
    }
}
