package org.flinkaccelerator.planner.stage;

import java.util.Map;
import java.util.TreeMap;

/**
 * The value format of a Kafka table, read from its options the way Flink's Kafka connector reads
 * them ('value.format', or 'format'), with the options that belong to that format under the
 * format's own keys ('value.json.x' is given as 'json.x', as the connector hands it to the format).
 */
record KafkaValueFormat(String format, Map<String, String> options) {
    static final String JSON = "json";
    static final String AVRO = "avro";
    /** Formats the sidecar decodes and encodes exactly today (avro: within {@link AvroSupport}). */
    static final java.util.Set<String> ACCELERATED = java.util.Set.of(JSON, AVRO);

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
}
