package org.flinkaccelerator.sidecar;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A stage refused a descriptor or failed on a batch; the sidecar itself is fine. Carries the
 * sidecar's structured reply so the operator can name the Kafka record behind {@link #row()}.
 */
public final class StageFailedException extends SidecarException {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String call;
    private final String stageName;
    private final String pythonError;
    private final String reason;
    private final OptionalInt row;
    private final List<String> pythonTraceback;

    private StageFailedException(String message, String call, String stageName, String pythonError, String reason,
            OptionalInt row, List<String> pythonTraceback) {
        super(message);
        this.call = call;
        this.stageName = stageName;
        this.pythonError = pythonError;
        this.reason = reason;
        this.row = row;
        this.pythonTraceback = pythonTraceback;
    }

    /** Builds the exception from the sidecar's JSON error reply (see accelerator/sidecar/errors.py). */
    static StageFailedException fromReply(String replyJson) {
        JsonNode reply;
        try {
            reply = JSON.readTree(replyJson);
        } catch (Exception e) {
            reply = null;
        }
        if (reply == null || !reply.isObject()) {
            return new StageFailedException("The Python sidecar reported a failure without a readable reason: "
                    + replyJson, "unknown", null, "unknown", String.valueOf(replyJson), OptionalInt.empty(), List.of());
        }
        String call = reply.path("call").asText("unknown");
        String stageName = reply.path("stage_name").isTextual() ? reply.path("stage_name").asText() : null;
        String error = reply.path("error").asText("Exception");
        String reason = reply.path("reason").asText("");
        OptionalInt row = reply.path("row").isInt() ? OptionalInt.of(reply.path("row").asInt()) : OptionalInt.empty();
        List<String> traceback = new ArrayList<>();
        reply.path("traceback").forEach(frame -> traceback.add(frame.asText()));

        StringBuilder message = new StringBuilder("Accelerated stage");
        if (stageName != null) {
            message.append(" '").append(stageName).append('\'');
        }
        if (reply.path("stage").isNumber()) {
            message.append(" (id ").append(reply.path("stage").asLong()).append(')');
        }
        message.append(" failed in ").append(call);
        if (reply.path("sequence").isNumber()) {
            message.append(" of batch ").append(reply.path("sequence").asLong());
        }
        row.ifPresent(r -> message.append(" at row ").append(r).append(" of the batch"));
        message.append(": ").append(error).append(": ").append(reason);
        if (!traceback.isEmpty()) {
            message.append(" [Python, innermost last: ").append(String.join(" > ", traceback)).append(']');
        }
        return new StageFailedException(message.toString(), call, stageName, error, reason, row,
                List.copyOf(traceback));
    }

    /** The control call that failed: "open" or "process". */
    public String call() {
        return call;
    }

    /** The descriptor's name, when the sidecar knew it. */
    public String stageName() {
        return stageName;
    }

    /** The Python exception class, e.g. "ValueError". */
    public String pythonError() {
        return pythonError;
    }

    public String reason() {
        return reason;
    }

    /** Index of the offending row within the batch, when the stage knew it. */
    public OptionalInt row() {
        return row;
    }

    /** Innermost Python frames, "file.py:line in function", outermost first. */
    public List<String> pythonTraceback() {
        return pythonTraceback;
    }
}
