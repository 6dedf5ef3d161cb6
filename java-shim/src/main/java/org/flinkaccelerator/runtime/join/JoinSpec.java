package org.flinkaccelerator.runtime.join;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.state.ChangelogSpec;
import org.flinkaccelerator.runtime.state.StateStageDescriptor;

/**
 * Everything an {@link AcceleratedJoinOperator} needs at run time, fixed at planning time: the
 * join descriptor, both inputs' rows, which key fields a NULL keeps from joining, and the sidecar
 * settings the other accelerated operators use.
 *
 * @param descriptorJson the join stage descriptor
 * @param leftType the left input's rows
 * @param rightType the right input's rows
 * @param filterNullKeys per join key field, whether a NULL there joins nothing ({@code =}; stock's
 *     {@code filterNullKeys}), as opposed to {@code IS NOT DISTINCT FROM}
 * @param pythonExecutable {@code accelerator.python.executable}
 * @param batchSize rows per {@code update} call at most ({@code accelerator.batch.size})
 * @param batchBytes input bytes that make a batch full ({@code accelerator.batch.max-bytes})
 * @param maxDelay longest a row waits in a partial batch ({@code accelerator.batch.max-delay})
 * @param sidecarTimeout longest one sidecar call may take ({@code accelerator.sidecar.timeout})
 * @param arrowLimit most bytes the operator's Arrow buffers may hold ({@code accelerator.memory.arrow-limit})
 */
public record JoinSpec(String descriptorJson, RowType leftType, RowType rightType, boolean[] filterNullKeys,
        String pythonExecutable, int batchSize, long batchBytes, Duration maxDelay, Duration sidecarTimeout,
        long arrowLimit) implements ChangelogSpec {
    private static final long serialVersionUID = 1L;
    static final String KIND = "join";
    /** Per {@code state.backend} the descriptor may name, the keyed state backend class stock then runs. */
    static final Map<String, String> BACKEND_CLASSES = Map.of(
            "hashmap", "org.apache.flink.runtime.state.heap.HeapKeyedStateBackend",
            "rocksdb", RocksDbBackendOfThisLine.KEYED_BACKEND_CLASS);
    /** A batch row's columns before the joined row's: {@code $key}, {@code $key_group}, {@code $side}, {@code $order}. */
    static final int TRANSPORT_COLUMNS = 4;

    /** With the defaults of the accelerator's options for the batch and memory limits. */
    public JoinSpec(String descriptorJson, RowType leftType, RowType rightType, boolean[] filterNullKeys,
            String pythonExecutable) {
        this(descriptorJson, leftType, rightType, filterNullKeys, pythonExecutable,
                AcceleratorOptions.BATCH_SIZE.defaultValue(), AcceleratorOptions.BATCH_MAX_BYTES.defaultValue().getBytes(),
                AcceleratorOptions.BATCH_MAX_DELAY.defaultValue(), AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(),
                AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
    }

    public JoinSpec {
        Objects.requireNonNull(leftType, "leftType");
        Objects.requireNonNull(rightType, "rightType");
        Objects.requireNonNull(filterNullKeys, "filterNullKeys");
        JsonNode descriptor = ChangelogSpec.checkSettings(descriptorJson, KIND, pythonExecutable, batchSize,
                batchBytes, maxDelay, sidecarTimeout, arrowLimit);
        if (descriptor.path("state").path("fingerprint").asText().length() != 64) {
            throw new IllegalArgumentException("the join descriptor has no 64-digit state.fingerprint");
        }
        if (!BACKEND_CLASSES.containsKey(descriptor.path("state").path("backend").asText())) {
            throw new IllegalArgumentException("the join descriptor's state.backend is '"
                    + descriptor.path("state").path("backend").asText() + "', not one of " + BACKEND_CLASSES.keySet());
        }
        List<LogicalType> inputs = new ArrayList<>(leftType.getChildren());
        inputs.addAll(rightType.getChildren());
        RowType row = StateStageDescriptor.fieldsType(descriptor.path("input").path("fields"), TRANSPORT_COLUMNS);
        if (!row.getChildren().equals(inputs.stream().map(t -> t.copy(true)).toList())) {
            throw new IllegalArgumentException("the join descriptor's input columns " + row + " are not the left"
                    + " input's " + leftType + " then the right input's " + rightType + ", each nullable");
        }
    }

    /**
     * Whether stock emits the left input's rows that match nothing: a LEFT or FULL join null-pads
     * them, an ANTI join emits them as they are.
     */
    public boolean leftEmitsUnmatched() {
        String type = descriptor().path("join_type").asText();
        return type.equals("LEFT") || type.equals("FULL") || type.equals("ANTI");
    }

    /** Whether stock emits the right input's rows that match nothing: a RIGHT or FULL join null-pads them. */
    public boolean rightEmitsUnmatched() {
        String type = descriptor().path("join_type").asText();
        return type.equals("RIGHT") || type.equals("FULL");
    }

    /** The descriptor's {@code exchange} entry of each input that reads batch records: {@code {"left": "batched"}}. */
    public static final String[] INPUTS = {"left", "right"};

    /**
     * Whether input {@code input} (0 the left, 1 the right) arrives as batch records of a batch
     * exchange ({@code runtime/exchange}), their rows already the stage's {@code update} rows of
     * that input, instead of one row per record.
     */
    public boolean batchedInput(int input) {
        return BATCHED.equals(descriptor().path(EXCHANGE).path(INPUTS[input]).asText());
    }

    /** The state backend ({@code state.backend.type}) whose order of a key's rows the stage reproduces. */
    public String backend() {
        return descriptor().path("state").path("backend").asText();
    }

    /**
     * The joined row's fields as an update batch carries them after the transport columns, each
     * nullable (a row fills its own input's): the fields of the stage's state rows.
     */
    public RowType fieldsType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), TRANSPORT_COLUMNS);
    }

    @Override
    public String kind() {
        return KIND;
    }

    /**
     * The joined row: the left input's fields, then the right input's (the output row, but for a
     * SEMI or ANTI join, which outputs the left row and names the joined one in {@code joined}).
     */
    @Override
    public RowType inputType() {
        JsonNode joined = descriptor().path("joined").path("fields");
        return joined.isMissingNode() ? outputType() : StateStageDescriptor.fieldsType(joined, 0);
    }

    @Override
    public RowType valuesType() {
        return outputType();
    }

    @Override
    public RowType outputType() {
        return StateStageDescriptor.fieldsType(descriptor().path("output").path("fields"), 0);
    }
}
