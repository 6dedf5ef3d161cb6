package org.flinkaccelerator.runtime.splits;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;

/**
 * A reader that emits an {@link SplitAnnouncer#added} marker for each split added to it before the
 * delegate reads it, and an {@link SplitAnnouncer#released} marker right after the delegate
 * releases a split's output (SourceReaderBase does when the split finishes, after its last
 * record), both through the output the records take, so they stay in order with them.
 *
 * <p>Every SourceReader method, the default ones included (KafkaSourceReader commits offsets in
 * notifyCheckpointComplete), is the delegate's. Splits arrive outside pollNext, so their markers
 * wait for the next one; meanwhile the reader says it is available, as Flink's SourceOperator
 * creates a split's output as soon as it is added, not when the split has data.
 */
final class SplitAnnouncingReader<T, SplitT extends SourceSplit> implements SourceReader<T, SplitT> {
    private static final CompletableFuture<Void> AVAILABLE = CompletableFuture.completedFuture(null);

    private final SourceReader<T, SplitT> delegate;
    private final SplitAnnouncer<T> announcer;
    /** The splits added since the last pollNext, in order: their markers are still to be emitted. */
    private final ArrayDeque<String> added = new ArrayDeque<>();
    /** Completed when splits are added, to wake a task waiting for the delegate's data. */
    private CompletableFuture<Void> splitsAdded = new CompletableFuture<>();
    /** The delegate's view of the output pollNext was last given (SourceOperator gives the same one). */
    private ReleaseAnnouncingOutput<T> output;

    SplitAnnouncingReader(SourceReader<T, SplitT> delegate, SplitAnnouncer<T> announcer) {
        this.delegate = delegate;
        this.announcer = announcer;
    }

    @Override
    public void start() {
        delegate.start();
    }

    @Override
    public void addSplits(List<SplitT> splits) {
        for (SplitT split : splits) {
            added.add(split.splitId());
        }
        delegate.addSplits(splits);
        splitsAdded.complete(null);
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> readerOutput) throws Exception {
        while (!added.isEmpty()) {
            readerOutput.collect(announcer.added(added.poll()));
        }
        if (output == null || output.target != readerOutput) {
            output = new ReleaseAnnouncingOutput<>(readerOutput, announcer);
        }
        return delegate.pollNext(output);
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        if (!added.isEmpty()) {
            return AVAILABLE;
        }
        CompletableFuture<Void> data = delegate.isAvailable();
        if (data.isDone()) {
            return data;
        }
        if (splitsAdded.isDone()) {
            splitsAdded = new CompletableFuture<>();
        }
        return data.applyToEither(splitsAdded, Function.identity());
    }

    @Override
    public List<SplitT> snapshotState(long checkpointId) {
        return delegate.snapshotState(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        delegate.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        delegate.notifyCheckpointAborted(checkpointId);
    }

    @Override
    public void notifyNoMoreSplits() {
        delegate.notifyNoMoreSplits();
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        delegate.handleSourceEvents(sourceEvent);
    }

    @Override
    public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
        delegate.pauseOrResumeSplits(splitsToPause, splitsToResume);
    }

    @Override
    public void close() throws Exception {
        delegate.close();
    }

    /** The output the delegate reads into: {@code target}, announcing each split output it releases. */
    private static final class ReleaseAnnouncingOutput<T> implements ReaderOutput<T> {
        private final ReaderOutput<T> target;
        private final SplitAnnouncer<T> announcer;

        ReleaseAnnouncingOutput(ReaderOutput<T> target, SplitAnnouncer<T> announcer) {
            this.target = target;
            this.announcer = announcer;
        }

        @Override
        public void collect(T record) {
            target.collect(record);
        }

        @Override
        public void collect(T record, long timestamp) {
            target.collect(record, timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            target.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            target.markIdle();
        }

        @Override
        public void markActive() {
            target.markActive();
        }

        @Override
        public SourceOutput<T> createOutputForSplit(String splitId) {
            return target.createOutputForSplit(splitId);
        }

        /** Releases the split's output, then announces it: after the split's last record, which came before. */
        @Override
        public void releaseOutputForSplit(String splitId) {
            target.releaseOutputForSplit(splitId);
            target.collect(announcer.released(splitId));
        }
    }
}
