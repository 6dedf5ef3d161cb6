package org.flinkaccelerator.planner.replace;

import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The {@code StreamExecSink} constructor parameters that only the Flink 1.20 line has: none (its
 * constructor takes only the parameters common to every supported line).
 */
final class SinkParametersOfThisLine {
    private SinkParametersOfThisLine() {}

    static Map<Class<?>, Object> of(ReadableConfig config) {
        return Map.of();
    }
}
