package org.flinkaccelerator.planner.replace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class StreamExecSinkConstructorTest {

    @Test
    void createsTheSinkWithTheGivenPartsOnTheCompiledRelease() {
        RowType row = RowType.of(new IntType());
        int[] upsertKey = {0};
        StreamExecSink sink = StreamExecSinkConstructor.create(null, new Configuration(), null,
                ChangelogMode.insertOnly(), InputProperty.DEFAULT, row, true, upsertKey, "Sink(raw)");
        assertEquals(row, sink.getOutputType());
        assertEquals("Sink(raw)", sink.getDescription());
        assertEquals(InputProperty.DEFAULT, sink.getInputProperties().get(0));
    }

    /** A release's parameter this build does not know (as 2.3's InsertConflictStrategy) comes from the replaced node. */
    @Test
    void aNewerParameterIsCarriedOverFromTheReplacedSink() throws Exception {
        Strategy deduplicate = new Strategy();
        NewerSink original = new NewerSink(new Configuration(), deduplicate, "original");
        Map<Class<?>, Object> known = new HashMap<>();
        known.put(ReadableConfig.class, new Configuration());
        known.put(String.class, "raw");
        NewerSink created = (NewerSink) StreamExecSinkConstructor.construct(
                StreamExecSinkConstructor.find(NewerSink.class), original, known);
        assertSame(deduplicate, created.strategy);
        assertEquals("raw", created.description);
    }

    @Test
    void aParameterThatCannotBeCarriedOverFailsNamingIt() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> StreamExecSinkConstructor.construct(
                StreamExecSinkConstructor.find(AmbiguousSink.class), new AmbiguousSink(new Configuration(), null),
                Map.of(ReadableConfig.class, new Configuration())));
        assertTrue(e.getMessage().contains(Strategy.class.getName()) && e.getMessage().contains("2 fields"),
                e.getMessage());
    }

    static final class Strategy {}

    public static final class NewerSink {
        final Strategy strategy;
        final String description;

        public NewerSink(ReadableConfig config, Strategy strategy, String description) {
            this.strategy = strategy;
            this.description = description;
        }
    }

    public static final class AmbiguousSink {
        private final Strategy first;
        private final Strategy second;

        public AmbiguousSink(ReadableConfig config, Strategy strategy) {
            this.first = strategy;
            this.second = strategy;
        }
    }
}
