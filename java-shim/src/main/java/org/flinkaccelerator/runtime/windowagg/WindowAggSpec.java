package org.flinkaccelerator.runtime.windowagg;

import java.time.Duration;
import java.time.ZoneId;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.SidecarLimits;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedWindowAggOperator} needs at run time, fixed at planning time:
 * the window_agg descriptor (docs/design/stateful-window-aggregate.md §2) and what the operator
 * reads from it, where the time and the argument columns are in its input rows, and the sidecar
 * settings the other accelerated operators use.
 *
 * @param descriptorJson the window_agg stage descriptor, as {@code WindowAggExport} writes it
 * @param inputType the operator's input rows (the exec node's input)
 * @param timeIndex the input field of {@code $time}: the rowtime (single phase) or the slice end
 *     (global phase)
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record WindowAggSpec(String descriptorJson, RowType inputType, int timeIndex, String pythonExecutable,
        int batchSize, long batchBytes, Duration sidecarTimeout, long arrowLimit) implements SidecarStateSpec {
    private static final long serialVersionUID = 1L;

    public static final String SINGLE = "single";
    public static final String CUMULATE = "cumulate";
    public static final String GLOBAL = "global";
    /** The transport columns before the arguments: {@code $key}, {@code $key_group} and {@code $time}. */
    static final int TRANSPORT_COLUMNS = 3;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public WindowAggSpec(String descriptorJson, RowType inputType, int timeIndex, String pythonExecutable) {
        this(descriptorJson, inputType, timeIndex, pythonExecutable, AcceleratorOptions.BATCH_SIZE.defaultValue(),
                AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public WindowAggSpec {
        Objects.requireNonNull(descriptorJson, "descriptorJson");
        Objects.requireNonNull(inputType, "inputType");
        Objects.requireNonNull(pythonExecutable, "pythonExecutable");
        if (timeIndex < 0 || timeIndex >= inputType.getFieldCount()) {
            throw new IllegalArgumentException("time field " + timeIndex + " is not a field of " + inputType);
        }
        SidecarLimits.check(batchSize, batchBytes, arrowLimit, sidecarTimeout);
        JsonNode descriptor = StateStageDescriptor.parse(descriptorJson, "window_agg");
        StateStageDescriptor.checkKind(descriptor, "window_agg");
        String phase = descriptor.path("phase").asText();
        if (!SINGLE.equals(phase) && !GLOBAL.equals(phase)) {
            throw new IllegalArgumentException("window_agg phase is '" + phase + "', not single or global");
        }
        String window = descriptor.path("window").path("type").asText();
        if (!"tumble".equals(window) && !"hop".equals(window) && !CUMULATE.equals(window)) {
            throw new IllegalArgumentException("only TUMBLE, HOP and CUMULATE windows run accelerated, not "
                    + descriptor.path("window"));
        }
        StateStageDescriptor.checkStateAndInput(descriptor, TRANSPORT_COLUMNS, inputType);
    }

    private JsonNode descriptor() {
        return StateStageDescriptor.parse(descriptorJson, "window_agg");
    }

    /** The descriptor's name (the operator's, in the job graph). */
    public String name() {
        return descriptor().path("name").asText();
    }

    public String phase() {
        return descriptor().path("phase").asText();
    }

    /** The descriptor's state fingerprint (64 hex digits): what the state format marker guards. */
    public String fingerprint() {
        return descriptor().path("state").path("fingerprint").asText();
    }

    public long sizeMillis() {
        return descriptor().path("window").path("size_ms").asLong();
    }

    /** The slice length: a HOP window's slide, a CUMULATE window's step, a TUMBLE window's size. */
    public long slideMillis() {
        JsonNode window = descriptor().path("window");
        return window.path(cumulative() ? "step_ms" : "slide_ms").asLong(sizeMillis());
    }

    /** Whether the window is a CUMULATE window (its size being the max size). */
    public boolean cumulative() {
        return CUMULATE.equals(descriptor().path("window").path("type").asText());
    }

    public long offsetMillis() {
        return descriptor().path("window").path("offset_ms").asLong();
    }

    /** The shift time zone (UTC for a TIMESTAMP rowtime, table.local-time-zone for TIMESTAMP_LTZ). */
    public ZoneId zone() {
        return ZoneId.of(descriptor().path("window").path("zone").asText());
    }

    public int keyArity() {
        return descriptor().path("keys").size();
    }

    /** The input fields (indexes into {@link #inputType}) sent after the three transport columns, in order. */
    public int[] argumentIndexes() {
        return StateStageDescriptor.argumentNames(descriptor(), TRANSPORT_COLUMNS).stream()
                .mapToInt(n -> inputType.getFieldNames().indexOf(n)).toArray();
    }

    /** The row of one {@code update} batch: {@code $key}, {@code $key_group}, {@code $time}, then the arguments. */
    public RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /** What follows the key in an output row: the emitted aggregate values, then the window properties. */
    public RowType valuesType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), keyArity());
    }

    /** The key row (the grouping fields), as the descriptor's {@code keys} list them. */
    public RowType keyType() {
        return StateStageDescriptor.fieldsType(descriptor().path("keys"), 0);
    }

    /** The operator's output row: the key fields, then {@link #valuesType()}. */
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }

    /**
     * Whether the input arrives as batch records of a batch exchange ({@code runtime/exchange}), their
     * rows already the stage's {@code update} rows, instead of one row per record.
     */
    public boolean batchedInput() {
        return ChangelogSpec.BATCHED.equals(descriptor().path(ChangelogSpec.EXCHANGE).asText());
    }

    /** The operator's name in the job graph and the web UI. */
    public String operatorName() {
        return "Accelerated[" + name() + "]";
    }
}
