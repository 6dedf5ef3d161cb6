package org.flinkaccelerator.runtime.splits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.Proxy;
import java.util.List;
import org.apache.flink.api.common.serialization.SimpleStringSchema;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.split.KafkaPartitionSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageDataset;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;
import org.apache.flink.streaming.api.lineage.SourceLineageVertex;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingReaderTest.FakeReader;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingReaderTest.FakeSplit;
import org.flinkaccelerator.runtime.splits.SplitAnnouncingReaderTest.Signs;
import org.junit.jupiter.api.Test;

/** The source is its delegate's but for the reader, which announces splits; Flink's KafkaSource as the delegate. */
class SplitAnnouncingSourceTest {
    static final KafkaSource<String> KAFKA = KafkaSource.<String>builder()
            .setBootstrapServers("localhost:9092")
            .setTopics("orders", "refunds")
            .setValueOnlyDeserializer(new SimpleStringSchema())
            .setBounded(OffsetsInitializer.latest())
            .build();

    /** A source with no lineage or produced type, whose every part is a recognizable stand-in. */
    static class FakeSource implements Source<String, FakeSplit, String> {
        static final SplitEnumerator<FakeSplit, String> ENUMERATOR = proxy(SplitEnumerator.class);
        static final FakeReader READER = new FakeReader();

        @SuppressWarnings("unchecked")
        static <I> I proxy(Class<?> type) {
            return (I) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> null);
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public SplitEnumerator<FakeSplit, String> createEnumerator(SplitEnumeratorContext<FakeSplit> context) {
            return ENUMERATOR;
        }

        @Override
        public SplitEnumerator<FakeSplit, String> restoreEnumerator(SplitEnumeratorContext<FakeSplit> context,
                String checkpoint) {
            return "checkpoint".equals(checkpoint) ? ENUMERATOR : null;
        }

        @Override
        public SimpleVersionedSerializer<FakeSplit> getSplitSerializer() {
            return proxy(SimpleVersionedSerializer.class);
        }

        @Override
        public SimpleVersionedSerializer<String> getEnumeratorCheckpointSerializer() {
            return proxy(SimpleVersionedSerializer.class);
        }

        @Override
        public SourceReader<String, FakeSplit> createReader(SourceReaderContext readerContext) {
            return READER;
        }
    }

    private static List<String> names(SourceLineageVertex vertex) {
        return vertex.datasets().stream().map(LineageDataset::name).toList();
    }

    @Test
    void isKafkasSourceButForTheReader() throws Exception {
        SplitAnnouncingSource<String, KafkaPartitionSplit, ?> source =
                InstantiationUtil.clone(SplitAnnouncingSource.of(KAFKA, new Signs()));

        assertEquals(Boundedness.BOUNDED, source.getBoundedness());
        assertEquals(KAFKA.getProducedType(), source.getProducedType());
        assertEquals(KAFKA.getSplitSerializer().getClass(), source.getSplitSerializer().getClass());
        assertEquals(KAFKA.getEnumeratorCheckpointSerializer().getClass(),
                source.getEnumeratorCheckpointSerializer().getClass());
        SourceLineageVertex lineage = (SourceLineageVertex) ((LineageVertexProvider) source).getLineageVertex();
        assertEquals(List.of("orders,refunds"), names(lineage));
        assertEquals(names(KAFKA.getLineageVertex()), names(lineage));
        assertEquals(KAFKA.getLineageVertex().boundedness(), lineage.boundedness());
    }

    @Test
    void forwardsTheEnumeratorAndWrapsTheReader() throws Exception {
        FakeSource fake = new FakeSource();
        SplitAnnouncingSource<String, FakeSplit, String> source = SplitAnnouncingSource.of(fake, new Signs());
        SplitEnumeratorContext<FakeSplit> context = FakeSource.proxy(SplitEnumeratorContext.class);

        assertEquals(Boundedness.CONTINUOUS_UNBOUNDED, source.getBoundedness());
        assertSame(FakeSource.ENUMERATOR, source.createEnumerator(context));
        assertSame(FakeSource.ENUMERATOR, source.restoreEnumerator(context, "checkpoint"));

        SourceReader<String, FakeSplit> reader = source.createReader(FakeSource.proxy(SourceReaderContext.class));
        assertInstanceOf(SplitAnnouncingReader.class, reader);
        reader.close();
        assertEquals(List.of("close"), FakeSource.READER.calls);
    }

    @Test
    void describesNoLineageNorTypeItsDelegateDoesNotDescribe() {
        SplitAnnouncingSource<String, FakeSplit, String> source = SplitAnnouncingSource.of(new FakeSource(), new Signs());

        assertFalse(source instanceof LineageVertexProvider);
        assertThrows(UnsupportedOperationException.class, source::getProducedType);
    }
}
