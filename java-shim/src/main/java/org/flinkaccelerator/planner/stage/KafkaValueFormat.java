package org.flinkaccelerator.planner.stage;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.table.types.logical.RowType;

/**
 * The value format of a Kafka table, read from its options the way Flink's Kafka connector reads
 * them ('value.format', or 'format'), with the options that belong to that format under the
 * format's own keys ('value.json.x' is given as 'json.x', as the connector hands it to the format).
 */
record KafkaValueFormat(String format, Map<String, String> options) {
    static final String JSON = "json";
    static final String AVRO = "avro";
    static final String CSV = "csv";
    static final String RAW = "raw";
    static final String PROTOBUF = "protobuf";
    /** Formats the sidecar decodes and encodes exactly today (all but json: within {@link #check}). */
    static final Set<String> ACCELERATED = Set.of(JSON, AVRO, CSV, RAW, PROTOBUF);
    /**
     * Formats the sidecar decodes only as a whole value row (no projection pushed into the format;
     * Flink's protobuf decoder reads, and may fail on, every column of the table).
     */
    static final Set<String> WHOLE_ROW_DECODED = Set.of(AVRO, CSV, RAW, PROTOBUF);

    /** The value format, or null when the table has none (Flink itself rejects such a table). */
    static KafkaValueFormat of(Map<String, String> tableOptions) {
        String format = tableOptions.getOrDefault("value.format", tableOptions.get("format"));
        if (format == null) {
            return null;
        }
        Map<String, String> options = new TreeMap<>();
        tableOptions.forEach((key, value) -> {
            if (key.startsWith(format + ".")) {
                options.put(key, value);
            } else if (key.startsWith("value." + format + ".")) {
                options.put(key.substring("value.".length()), value); // the sidecar reads the format's own keys
            }
        });
        return new KafkaValueFormat(format, options);
    }

    /**
     * The options the sidecar gets for {@code row} in this format, and why the format with these
     * options does not reproduce the row exactly (empty: it does).
     */
    FormatCheck check(RowType row, boolean decoding) {
        return switch (format) {
            case AVRO -> new FormatCheck(options, AvroSupport.problems(row, options, decoding));
            case CSV -> new FormatCheck(options, CsvSupport.problems(row, options, decoding));
            case RAW -> new FormatCheck(options, RawSupport.problems(row, options, decoding));
            case JSON -> new FormatCheck(options, JsonSupport.problems(row, options, decoding));
            case PROTOBUF -> ProtobufSupport.check(row, options, decoding);
            default -> new FormatCheck(options, List.of());
        };
    }
}
