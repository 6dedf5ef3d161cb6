package org.flinkaccelerator.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Which outputs of a rows stage carry a folded local window aggregate's partial rows (the
 * descriptor's {@code local_window_agg} sections: output 0 at the top level, output i in entry i-1
 * of {@code branches}). Stock's {@code LocalSlicingWindowAggOperator} emits its partials without a
 * record timestamp ({@code TimestampedCollector.eraseTimestamp}), so those outputs' records carry
 * none, where the other outputs' carry their message's.
 */
final class LocalPhaseOutputs {
    static final String SECTION = "local_window_agg";

    private LocalPhaseOutputs() {}

    /** Per output of the stage (main, then each side output), whether it carries partials. */
    static boolean[] of(String descriptorJson, int outputs) {
        JsonNode descriptor;
        try {
            descriptor = new ObjectMapper().readTree(descriptorJson);
        } catch (IOException e) {
            throw new UncheckedIOException("the stage descriptor is not JSON", e);
        }
        boolean[] partials = new boolean[outputs];
        JsonNode branches = descriptor.path("branches");
        for (int i = 0; i < outputs; i++) {
            JsonNode output = i == 0 ? descriptor : branches.path(i - 1);
            partials[i] = output.path(SECTION).isObject();
        }
        return partials;
    }
}
