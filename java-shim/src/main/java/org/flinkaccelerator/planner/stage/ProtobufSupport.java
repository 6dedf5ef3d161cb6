package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.table.types.logical.RowType;

/**
 * Which tables of Flink's {@code protobuf} format (flink-protobuf 2.2.0) the sidecar reproduces
 * exactly, and the message schema it gets in their place of the Java class they name. The options
 * are read as flink-protobuf's PbFormatFactory reads them; the message class is loaded as Flink
 * loads it ({@link ProtobufMessage}), and the spec's options gain its FileDescriptorSet (base64)
 * and full name under the sidecar's keys ({@code accelerator/formats/protobuf_options.py}). The
 * sidecar checks the same before it opens a stage ({@code accelerator.formats.protobuf.supported});
 * this side must never accept more than it.
 */
final class ProtobufSupport {
    static final String MESSAGE_CLASS_NAME = "protobuf.message-class-name";
    static final String IGNORE_PARSE_ERRORS = "protobuf.ignore-parse-errors";
    static final String READ_DEFAULT_VALUES = "protobuf.read-default-values";
    static final String WRITE_NULL_STRING_LITERAL = "protobuf.write-null-string-literal";
    private static final Set<String> KNOWN = Set.of(MESSAGE_CLASS_NAME, IGNORE_PARSE_ERRORS, READ_DEFAULT_VALUES,
            WRITE_NULL_STRING_LITERAL);
    /** Set by the shim, never by a table: the schema the sidecar decodes and encodes with. */
    static final String DESCRIPTOR_SET = "accelerator.protobuf.descriptor-set";
    static final String MESSAGE_NAME = "accelerator.protobuf.message-name";

    private ProtobufSupport() {}

    /**
     * The spec's options with the message's schema added, and why the value (or key) row {@code row}
     * with the table's {@code options} is not reproduced. The message class is looked up through the
     * thread's context class loader, as Flink's own format does when the plan is translated.
     */
    static FormatCheck check(RowType row, Map<String, String> options, boolean decoding) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey();
            if (!KNOWN.contains(key)) {
                problems.add("protobuf option '" + key + "' is not accelerated (flink-protobuf knows only "
                        + KNOWN.stream().sorted().toList() + ")");
            } else if ((key.equals(IGNORE_PARSE_ERRORS) || key.equals(READ_DEFAULT_VALUES))
                    && !Set.of("true", "false").contains(option.getValue().toLowerCase(Locale.ROOT))) {
                problems.add("'" + key + "' = '" + option.getValue() + "' is not a boolean");
            }
        }
        String className = options.get(MESSAGE_CLASS_NAME);
        if (className == null || className.isEmpty()) {
            problems.add("the protobuf format needs '" + MESSAGE_CLASS_NAME + "'");
        }
        if (!problems.isEmpty()) {
            return new FormatCheck(options, problems);
        }
        ProtobufMessage message;
        try {
            message = ProtobufMessage.load(className, Thread.currentThread().getContextClassLoader());
        } catch (ProtobufMessage.Unavailable e) {
            return new FormatCheck(options, List.of(e.getMessage()));
        }
        boolean readDefaults = "true".equalsIgnoreCase(options.get(READ_DEFAULT_VALUES));
        ProtobufRows.check(message.descriptor(), row, decoding, readDefaults || message.proto3(), readDefaults, problems);
        Map<String, String> withSchema = new TreeMap<>(options);
        withSchema.put(DESCRIPTOR_SET, Base64.getEncoder().encodeToString(message.descriptorSet()));
        withSchema.put(MESSAGE_NAME, message.fullName());
        return new FormatCheck(withSchema, problems);
    }
}
