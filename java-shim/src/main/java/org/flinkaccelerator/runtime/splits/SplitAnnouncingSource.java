package org.flinkaccelerator.runtime.splits;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.lineage.LineageVertex;
import org.apache.flink.streaming.api.lineage.LineageVertexProvider;

/**
 * A source that reads as its delegate does and announces, in band, when a split is added to a
 * reader and when the reader releases the split's output ({@link SplitAnnouncingReader}), so an
 * operator chained after it can keep one watermark per split as Flink's SourceOperator does.
 *
 * <p>Everything else is the delegate's: boundedness, enumerator (so the interfaces Flink looks for
 * on the enumerator, SupportsHandleExecutionAttemptSourceEvent and SupportsBatchSnapshot, stay as
 * they are), serializers, watermark declarations (a default method of Source) and produced type
 * (unknown when the delegate is not ResultTypeQueryable: the job must then name it). Of the
 * optional interfaces Flink looks for on the source itself, {@link LineageVertexProvider} is
 * forwarded ({@link #of} returns a source implementing it exactly when the delegate does, since the
 * table planner takes a provider's vertex as present). Not forwarded, as Flink's KafkaSource
 * implements none of them: DynamicParallelismInference (batch jobs only),
 * SupportsSplitReassignmentOnRecovery (restored splits then go back to the reader instead of the
 * enumerator) and OutputTypeConfigurable. The reader is always a {@link SplitAnnouncingReader}, so
 * a delegate reader that is an ExternallyInducedSourceReader would lose that role.
 */
public class SplitAnnouncingSource<T, SplitT extends SourceSplit, EnumChkT>
        extends WatermarkDeclaringSource<T, SplitT, EnumChkT> implements ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final Source<T, SplitT, EnumChkT> delegate;
    private final SplitAnnouncer<T> announcer;

    private SplitAnnouncingSource(Source<T, SplitT, EnumChkT> delegate, SplitAnnouncer<T> announcer) {
        this.delegate = delegate;
        this.announcer = announcer;
    }

    /** {@code delegate}, announcing its splits with {@code announcer}'s markers. */
    public static <T, SplitT extends SourceSplit, EnumChkT> SplitAnnouncingSource<T, SplitT, EnumChkT> of(
            Source<T, SplitT, EnumChkT> delegate, SplitAnnouncer<T> announcer) {
        return delegate instanceof LineageVertexProvider
                ? new WithLineage<>(delegate, announcer)
                : new SplitAnnouncingSource<>(delegate, announcer);
    }

    @Override
    public SourceReader<T, SplitT> createReader(SourceReaderContext readerContext) throws Exception {
        return new SplitAnnouncingReader<>(delegate.createReader(readerContext), announcer);
    }

    @Override
    public Boundedness getBoundedness() {
        return delegate.getBoundedness();
    }

    @Override
    public SplitEnumerator<SplitT, EnumChkT> createEnumerator(SplitEnumeratorContext<SplitT> context) throws Exception {
        return delegate.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<SplitT, EnumChkT> restoreEnumerator(SplitEnumeratorContext<SplitT> context,
            EnumChkT checkpoint) throws Exception {
        return delegate.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<SplitT> getSplitSerializer() {
        return delegate.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<EnumChkT> getEnumeratorCheckpointSerializer() {
        return delegate.getEnumeratorCheckpointSerializer();
    }

    @Override
    Source<T, SplitT, EnumChkT> delegate() {
        return delegate;
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeInformation<T> getProducedType() {
        if (delegate instanceof ResultTypeQueryable<?> queryable) {
            return (TypeInformation<T>) queryable.getProducedType();
        }
        throw new UnsupportedOperationException(delegate.getClass().getName()
                + " does not say what type it produces; pass the type where the source is added to the job");
    }

    /** The source of a delegate that describes its lineage. */
    private static final class WithLineage<T, SplitT extends SourceSplit, EnumChkT>
            extends SplitAnnouncingSource<T, SplitT, EnumChkT> implements LineageVertexProvider {
        private static final long serialVersionUID = 1L;

        private WithLineage(Source<T, SplitT, EnumChkT> delegate, SplitAnnouncer<T> announcer) {
            super(delegate, announcer);
        }

        @Override
        public LineageVertex getLineageVertex() {
            return ((LineageVertexProvider) delegate()).getLineageVertex();
        }
    }
}
