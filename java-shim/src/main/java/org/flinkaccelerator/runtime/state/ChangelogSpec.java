package org.flinkaccelerator.runtime.state;

import java.time.Duration;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.EncodedMessages;
import org.flinkaccelerator.runtime.SidecarLimits;

/**
 * What a {@link ChangelogBatchOperator} reads from its spec: besides the sidecar's settings, the
 * batch limits and the descriptor of a stage whose rows start with the transport columns
 * ({@code $key}, {@code $key_group}, and {@code $kind} when the stage takes an updating input).
 */
public interface ChangelogSpec extends SidecarStateSpec {
    /** The transport columns every stage's rows start with: the key's bytes and its key group. */
    int TRANSPORT_COLUMNS = 2;
    /** The third transport column of a stage over an updating input: each row's RowKind byte. */
    String ROW_KIND = "$kind";

    /** The descriptor's stage kind ("group_agg"). */
    String kind();

    /** Rows per {@code update} call at most ({@code accelerator.batch.size}). */
    int batchSize();

    /** Longest a row waits in a partial batch ({@code accelerator.batch.max-delay}). */
    Duration maxDelay();

    /** What an update answer carries after {@code $row} and {@code $kind}, per output row. */
    RowType valuesType();

    /** The operator's output row. */
    RowType outputType();

    default JsonNode descriptor() {
        return StateStageDescriptor.parse(descriptorJson(), kind());
    }

    default String name() {
        return descriptor().path("name").asText();
    }

    @Override
    default String fingerprint() {
        return descriptor().path("state").path("fingerprint").asText();
    }

    /** The row of one {@code update} batch: {@code $key}, {@code $key_group}, then the stage's columns. */
    @Override
    default RowType batchType() {
        return StateStageDescriptor.fieldsType(descriptor().path("input").path("fields"), 0);
    }

    /**
     * The descriptor's section holding the descriptor of the encode stage the planner fused into
     * the operator: the stage answers the sink's messages of its changelog rows
     * ({@code accelerator/sidecar/fused_encode.py}), the operator emits them to the sink's raw twin.
     */
    String FUSED_ENCODE = "fused_encode";

    @Override
    default boolean encodesMessages() {
        return descriptor().has(FUSED_ENCODE);
    }

    /** The row emitted per message when the operator encodes its sink's messages ({@link EncodedMessages#row}). */
    default RowType writtenRow() {
        return EncodedMessages.row(descriptor().path(FUSED_ENCODE).toString());
    }

    /** The descriptor's entry that makes the operator read batch records from a batch exchange. */
    String EXCHANGE = "exchange";
    String BATCHED = "batched";

    /**
     * Whether the input arrives as batch records of a batch exchange ({@code runtime/exchange}),
     * their rows already the stage's {@code update} rows, instead of one row per record.
     */
    default boolean batchedInput() {
        return BATCHED.equals(descriptor().path(EXCHANGE).asText());
    }

    /** The number of key fields (the descriptor's {@code keys}). */
    default int keyArity() {
        return descriptor().path("keys").size();
    }

    /** Whether the input is updating: its rows carry their RowKind ({@link #ROW_KIND}) to the stage. */
    default boolean updatingInput() {
        return rowKinds(descriptor());
    }

    /** The input fields (indexes into {@link #inputType}) sent after the transport columns, in order. */
    default int[] columnIndexes() {
        JsonNode descriptor = descriptor();
        return StateStageDescriptor.argumentNames(descriptor, transportColumns(descriptor)).stream()
                .mapToInt(n -> inputType().getFieldNames().indexOf(n)).toArray();
    }

    private static boolean rowKinds(JsonNode descriptor) {
        return ROW_KIND.equals(descriptor.path("input").path("fields").path(TRANSPORT_COLUMNS).path("name").asText());
    }

    private static int transportColumns(JsonNode descriptor) {
        return TRANSPORT_COLUMNS + (rowKinds(descriptor) ? 1 : 0);
    }

    /** The operator's name in the job graph and the web UI. */
    @Override
    default String operatorName() {
        return "Accelerated[" + name() + "]";
    }

    /**
     * Fails unless the settings are within the sidecar's limits and {@code descriptorJson} is a
     * descriptor of stage kind {@code kind}, with a state fingerprint and input columns of
     * {@code inputType} (a record's compact constructor calls it before its fields are set).
     */
    static void check(String descriptorJson, String kind, RowType inputType, String pythonExecutable, int batchSize,
            long batchBytes, Duration maxDelay, Duration sidecarTimeout, long arrowLimit) {
        Objects.requireNonNull(inputType, "inputType");
        JsonNode descriptor = checkSettings(descriptorJson, kind, pythonExecutable, batchSize, batchBytes, maxDelay,
                sidecarTimeout, arrowLimit);
        StateStageDescriptor.checkStateAndInput(descriptor, transportColumns(descriptor), inputType);
    }

    /**
     * The descriptor, after failing unless the settings are within the sidecar's limits and
     * {@code descriptorJson} is a descriptor of stage kind {@code kind}; a spec whose input columns
     * are not one input's checks them itself.
     */
    static JsonNode checkSettings(String descriptorJson, String kind, String pythonExecutable, int batchSize,
            long batchBytes, Duration maxDelay, Duration sidecarTimeout, long arrowLimit) {
        Objects.requireNonNull(descriptorJson, "descriptorJson");
        Objects.requireNonNull(pythonExecutable, "pythonExecutable");
        SidecarLimits.check(batchSize, batchBytes, arrowLimit, sidecarTimeout);
        if (maxDelay.isNegative() || maxDelay.isZero()) {
            throw new IllegalArgumentException("accelerator.batch.max-delay must be positive, got " + maxDelay);
        }
        JsonNode descriptor = StateStageDescriptor.parse(descriptorJson, kind);
        StateStageDescriptor.checkKind(descriptor, kind);
        return descriptor;
    }
}
