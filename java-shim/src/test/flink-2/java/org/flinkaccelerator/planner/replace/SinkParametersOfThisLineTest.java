package org.flinkaccelerator.planner.replace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.SinkUpsertMaterializeStrategy;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/** On the Flink 2 line the sink node gets the table config's upsert materialize strategy, as stock's. */
class SinkParametersOfThisLineTest {

    @Test
    void theSinkTakesTheConfiguredUpsertMaterializeStrategy() throws Exception {
        Configuration config = new Configuration();
        config.set(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE_STRATEGY, SinkUpsertMaterializeStrategy.VALUE);
        StreamExecSink sink = StreamExecSinkConstructor.create(null, config, null, ChangelogMode.insertOnly(),
                InputProperty.DEFAULT, RowType.of(new IntType()), false, null, "Sink(raw)");
        Field strategy = StreamExecSink.class.getDeclaredField("upsertMaterializeStrategy");
        strategy.setAccessible(true);
        assertEquals(SinkUpsertMaterializeStrategy.VALUE, strategy.get(sink));
    }
}
