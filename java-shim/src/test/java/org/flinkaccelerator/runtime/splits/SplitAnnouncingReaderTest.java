package org.flinkaccelerator.runtime.splits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceSplit;
import org.apache.flink.core.io.InputStatus;
import org.junit.jupiter.api.Test;

/**
 * The reader announces each split it is given before the split's first record and each split output
 * the delegate releases after the split's last record, and leaves everything else to the delegate.
 */
class SplitAnnouncingReaderTest {
    /** A split of fixed records. */
    record FakeSplit(String splitId, List<String> records) implements SourceSplit {}

    /** "+id" when a split is added, "-id" when its output is released. */
    static final class Signs implements SplitAnnouncer<String> {
        @Override
        public String added(String splitId) {
            return "+" + splitId;
        }

        @Override
        public String released(String splitId) {
            return "-" + splitId;
        }
    }

    /**
     * Reads its splits one after the other, one record per pollNext through the split's own output,
     * and releases a split's output once its records are out, as SourceReaderBase does; logs every call.
     */
    static final class FakeReader implements SourceReader<String, FakeSplit> {
        final List<String> calls = new ArrayList<>();
        final List<ReaderOutput<String>> outputs = new ArrayList<>();
        final List<FakeSplit> snapshot = new ArrayList<>();
        CompletableFuture<Void> available = new CompletableFuture<>();
        private final ArrayDeque<FakeSplit> splits = new ArrayDeque<>();
        private int emitted;
        private boolean noMoreSplits;

        @Override
        public void start() {
            calls.add("start");
        }

        @Override
        public void addSplits(List<FakeSplit> added) {
            calls.add("addSplits " + added.stream().map(FakeSplit::splitId).toList());
            splits.addAll(added);
        }

        @Override
        public InputStatus pollNext(ReaderOutput<String> output) {
            calls.add("pollNext");
            outputs.add(output);
            FakeSplit split = splits.peek();
            if (split != null && emitted < split.records().size()) {
                output.createOutputForSplit(split.splitId()).collect(split.records().get(emitted++));
            }
            if (split != null && emitted == split.records().size()) {
                output.releaseOutputForSplit(split.splitId());
                splits.poll();
                emitted = 0;
            }
            if (!splits.isEmpty()) {
                return InputStatus.MORE_AVAILABLE;
            }
            return noMoreSplits ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            calls.add("isAvailable");
            return available;
        }

        @Override
        public List<FakeSplit> snapshotState(long checkpointId) {
            calls.add("snapshotState " + checkpointId);
            return snapshot;
        }

        @Override
        public void notifyNoMoreSplits() {
            calls.add("notifyNoMoreSplits");
            noMoreSplits = true;
        }

        @Override
        public void handleSourceEvents(SourceEvent sourceEvent) {
            calls.add("handleSourceEvents " + sourceEvent);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            calls.add("notifyCheckpointComplete " + checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) {
            calls.add("notifyCheckpointAborted " + checkpointId);
        }

        @Override
        public void pauseOrResumeSplits(Collection<String> splitsToPause, Collection<String> splitsToResume) {
            calls.add("pauseOrResumeSplits " + splitsToPause + " " + splitsToResume);
        }

        @Override
        public void close() {
            calls.add("close");
        }
    }

    /** Logs what reaches it: records (with "@timestamp" when given one), watermarks, idleness, releases. */
    static final class RecordingOutput implements ReaderOutput<String> {
        final List<String> events = new ArrayList<>();
        final Map<String, SourceOutput<String>> splitOutputs = new HashMap<>();

        @Override
        public void collect(String record) {
            events.add(record);
        }

        @Override
        public void collect(String record, long timestamp) {
            events.add(record + "@" + timestamp);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            events.add("watermark " + watermark.getTimestamp());
        }

        @Override
        public void markIdle() {
            events.add("idle");
        }

        @Override
        public void markActive() {
            events.add("active");
        }

        @Override
        public SourceOutput<String> createOutputForSplit(String splitId) {
            return splitOutputs.computeIfAbsent(splitId, id -> this);
        }

        @Override
        public void releaseOutputForSplit(String splitId) {
            events.add("release " + splitId);
        }
    }

    private final FakeReader fake = new FakeReader();
    private final SplitAnnouncingReader<String, FakeSplit> reader = new SplitAnnouncingReader<>(fake, new Signs());
    private final RecordingOutput output = new RecordingOutput();

    private static FakeSplit split(String id, String... records) {
        return new FakeSplit(id, List.of(records));
    }

    @Test
    void announcesEachSplitBeforeItsFirstRecordAndItsReleaseAfterItsLast() throws Exception {
        reader.addSplits(List.of(split("a", "a1", "a2"), split("b", "b1"), split("c")));
        reader.notifyNoMoreSplits();

        List<InputStatus> statuses = new ArrayList<>();
        InputStatus status;
        do {
            status = reader.pollNext(output);
            statuses.add(status);
        } while (status != InputStatus.END_OF_INPUT);

        assertEquals(List.of("+a", "+b", "+c", "a1", "a2", "release a", "-a", "b1", "release b", "-b",
                "release c", "-c"), output.events);
        assertEquals(List.of(InputStatus.MORE_AVAILABLE, InputStatus.MORE_AVAILABLE, InputStatus.MORE_AVAILABLE,
                InputStatus.END_OF_INPUT), statuses);
    }

    @Test
    void announcesASplitAddedWhileReadingAtTheNextPoll() throws Exception {
        reader.addSplits(List.of(split("a", "a1", "a2")));
        assertEquals(InputStatus.MORE_AVAILABLE, reader.pollNext(output));
        reader.addSplits(List.of(split("b", "b1")));
        reader.pollNext(output);
        reader.pollNext(output);

        assertEquals(List.of("+a", "a1", "+b", "a2", "release a", "-a", "b1", "release b", "-b"), output.events);
    }

    @Test
    void pollsTheDelegateOnceEvenAfterAnnouncingAndReturnsItsStatus() throws Exception {
        reader.addSplits(List.of(split("x")));
        reader.notifyNoMoreSplits();

        assertEquals(InputStatus.END_OF_INPUT, reader.pollNext(output));

        assertEquals(List.of("+x", "release x", "-x"), output.events);
        assertEquals(1, fake.calls.stream().filter("pollNext"::equals).count());
    }

    @Test
    void isAvailableWhileSplitsWaitToBeAnnouncedAndWakesAWaitingTaskWhenSplitsArrive() throws Exception {
        CompletableFuture<Void> waiting = reader.isAvailable();
        assertFalse(waiting.isDone());

        reader.addSplits(List.of(split("a", "a1")));
        assertTrue(waiting.isDone());
        assertTrue(reader.isAvailable().isDone());

        reader.pollNext(output);
        CompletableFuture<Void> waitingForData = reader.isAvailable();
        assertFalse(waitingForData.isDone());
        fake.available.complete(null);
        assertTrue(waitingForData.isDone());
    }

    @Test
    void everyReaderCallReachesTheDelegate() throws Exception {
        SourceEvent event = new SourceEvent() {
            @Override
            public String toString() {
                return "event";
            }
        };

        reader.start();
        reader.addSplits(List.of(split("a", "a1")));
        reader.pollNext(output);
        reader.isAvailable();
        assertSame(fake.snapshot, reader.snapshotState(7));
        reader.notifyCheckpointComplete(7);
        reader.notifyCheckpointAborted(8);
        reader.handleSourceEvents(event);
        reader.pauseOrResumeSplits(List.of("a"), List.of("b"));
        reader.notifyNoMoreSplits();
        reader.close();

        assertEquals(List.of("start", "addSplits [a]", "pollNext", "isAvailable", "snapshotState 7",
                "notifyCheckpointComplete 7", "notifyCheckpointAborted 8", "handleSourceEvents event",
                "pauseOrResumeSplits [a] [b]", "notifyNoMoreSplits", "close"), fake.calls);
    }

    @Test
    void theDelegatesOutputForwardsEverythingAndIsMadeOncePerOutput() throws Exception {
        reader.pollNext(output);
        reader.pollNext(output);
        ReaderOutput<String> seen = fake.outputs.get(0);
        assertSame(seen, fake.outputs.get(1));

        seen.collect("r");
        seen.collect("s", 5);
        seen.emitWatermark(new Watermark(9));
        seen.markIdle();
        seen.markActive();
        assertSame(output.createOutputForSplit("a"), seen.createOutputForSplit("a"));
        assertEquals(List.of("r", "s@5", "watermark 9", "idle", "active"), output.events);

        RecordingOutput other = new RecordingOutput();
        reader.pollNext(other);
        assertNotSame(seen, fake.outputs.get(2));
        fake.outputs.get(2).releaseOutputForSplit("a");
        assertEquals(List.of("release a", "-a"), other.events);
    }
}
