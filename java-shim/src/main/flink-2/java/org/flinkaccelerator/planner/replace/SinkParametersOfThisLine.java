package org.flinkaccelerator.planner.replace;

import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.SinkUpsertMaterializeStrategy;

/**
 * The {@code StreamExecSink} constructor parameters that only the Flink 2 line has, by type: the
 * sink's upsert materialize strategy, as the stock planner takes it from the table config.
 */
final class SinkParametersOfThisLine {
    private SinkParametersOfThisLine() {}

    static Map<Class<?>, Object> of(ReadableConfig config) {
        return Map.of(SinkUpsertMaterializeStrategy.class,
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE_STRATEGY));
    }
}
