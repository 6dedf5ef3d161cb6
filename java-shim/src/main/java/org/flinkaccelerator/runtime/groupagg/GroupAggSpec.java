package org.flinkaccelerator.runtime.groupagg;

import java.time.Duration;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
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
        long batchBytes, Duration maxDelay, Duration sidecarTimeout, long arrowLimit) implements ChangelogSpec {
    private static final long serialVersionUID = 1L;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public GroupAggSpec(String descriptorJson, RowType inputType, String pythonExecutable) {
        this(descriptorJson, inputType, pythonExecutable, AcceleratorOptions.BATCH_SIZE.defaultValue(),
                AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.BATCH_MAX_DELAY.defaultValue(), AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public GroupAggSpec {
        ChangelogSpec.check(descriptorJson, KIND, inputType, pythonExecutable, batchSize, batchBytes, maxDelay,
                sidecarTimeout, arrowLimit);
    }

    static final String KIND = "group_agg";

    @Override
    public String kind() {
        return KIND;
    }

    /** What follows the key in an output row: the aggregate values. */
    @Override
    public RowType valuesType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), keyArity());
    }

    @Override
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }
}
