package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.ExceptionUtils;
import org.flinkaccelerator.runtime.state.KeyGroupFrames;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The accelerated window aggregate's state in Flink's checkpoints, against stock Flink doing the
 * same: barriers at random points (each one a stock buffer flush point), a snapshot mid-stream
 * restored into fresh operators, and rescaling from 2 subtasks to 1 and to 3 (max parallelism
 * 128) with Flink's own repartitioning of operator and keyed state. Outputs must be equal per
 * subtask, in order, for TUMBLE, HOP and CUMULATE windows ({@code AcceleratedWindowAggOperatorTest.WINDOWS});
 * CUMULATE also restored at every few events of a short stream.
 * And each mismatch the state format guards fails with its message.
 */
class AcceleratedWindowAggCheckpointTest {
    private static final int MAX_PARALLELISM = AcceleratedWindowAggOperatorTest.MAX_PARALLELISM;
    private static final int FEW_KEY_GROUPS = 8;

    static final String[] WINDOWS = AcceleratedWindowAggOperatorTest.WINDOWS;

    private static WindowAggHarnesses.Planned planned() throws Exception {
        return planned(AcceleratedWindowAggOperatorTest.TUMBLE);
    }

    private static WindowAggHarnesses.Planned planned(String window) throws Exception {
        return WindowAggHarnesses.plan(AcceleratedWindowAggOperatorTest.allFunctions(window),
                AcceleratedWindowAggOperatorTest.ONE_PHASE);
    }

    private static List<WindowAggHarnesses.Event> events(WindowAggHarnesses.Planned planned, long seed, int rows) {
        return WindowAggHarnesses.stream(planned.inputType(), planned.spec().timeIndex(), seed, rows,
                AcceleratedWindowAggOperatorTest.SIZE, planned.spec().slideMillis());
    }

    /** Runs the events through one harness, taking a checkpoint (barrier and snapshot) before each event at {@code barriers}. */
    private static List<String> runWithBarriers(WindowAggHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<WindowAggHarnesses.Event> events,
            List<Integer> barriers) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            int at = 0;
            long checkpoint = 0;
            for (int barrier : barriers) {
                WindowAggHarnesses.feed(harness, events, at, barrier);
                harness.prepareSnapshotPreBarrier(++checkpoint);
                harness.snapshot(checkpoint, checkpoint);
                at = barrier;
            }
            WindowAggHarnesses.feed(harness, events, at, events.size());
            return WindowAggHarnesses.output(harness, planned.outputType());
        }
    }

    @ParameterizedTest
    @MethodSource("org.flinkaccelerator.runtime.windowagg.AcceleratedWindowAggOperatorTest#windowsAndBackends")
    void barriersAtRandomPointsGiveStockOutput(String window, WindowAggHarnesses.Backend backend) throws Exception {
        // RocksDB (slower snapshots) and CUMULATE (restoreAtEveryPoint below covers it too) repeat
        // one shorter stream.
        WindowAggHarnesses.Planned planned = planned(window).on(backend);
        boolean full = backend == WindowAggHarnesses.Backend.HEAP && !planned.spec().cumulative();
        for (long seed = 5; seed <= (full ? 7 : 5); seed++) {
            List<WindowAggHarnesses.Event> events = events(planned, seed, full ? 1500 : 700);
            Random random = new Random(seed);
            List<Integer> barriers = new ArrayList<>();
            for (int i = 0; i < events.size(); i += 1 + random.nextInt(120)) {
                barriers.add(i);
            }
            List<String> stock = runWithBarriers(planned, planned.newStock(), events, barriers);
            assertEquals(stock, runWithBarriers(planned, planned.newAccelerated(), events, barriers), "seed " + seed);
            // The barriers move stock's flush points, so they do change its tie order somewhere.
            assertTrue(stock.size() > 20);
        }
    }

    /**
     * Runs the events on {@code before} subtasks up to {@code cut}, snapshots every subtask and
     * continues from the repartitioned snapshot on {@code after} subtasks ({@link RescaledRun}).
     * Each subtask's output, before the cut then after.
     */
    private static List<String> rescaled(WindowAggHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<WindowAggHarnesses.Event> events,
            int cut, int before, int after) throws Exception {
        return new RescaledRun<WindowAggHarnesses.Event>(planned::harness,
                event -> event instanceof WindowAggHarnesses.Row row ? planned.keySelector().getKey(row.row()) : null,
                WindowAggHarnesses::feed, harness -> WindowAggHarnesses.output(harness, planned.outputType()), MAX_PARALLELISM)
                .run(operators, events, cut, before, after, false);
    }

    @ParameterizedTest
    @MethodSource("org.flinkaccelerator.runtime.windowagg.AcceleratedWindowAggOperatorTest#windowsAndBackends")
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput(String window, WindowAggHarnesses.Backend backend)
            throws Exception {
        restoreAndRescale(planned(window).on(backend));
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void globalPhaseRestoresAndRescalesAsStock(String window) throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(AcceleratedWindowAggOperatorTest.allFunctions(window));
        assertEquals(WindowAggSpec.GLOBAL, planned.spec().phase());
        restoreAndRescale(planned);
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void extremesOfEveryTypeRestoreAndRescaleAsStock(String window) throws Exception {
        // Strings and timestamps are the state's variable-width and struct accumulator columns.
        restoreAndRescale(WindowAggHarnesses.plan(AcceleratedWindowAggOperatorTest.extremes(window),
                AcceleratedWindowAggOperatorTest.ONE_PHASE));
    }

    @Test
    void restoreAtEveryPointGivesStockOutput() throws Exception {
        // CUMULATE's state after a partial window is the merged first slice: a restore anywhere
        // (before or after a window of its max-size window fired, with late rows in the first
        // slice) must continue from exactly stock's state. A short stream, restored every few events.
        WindowAggHarnesses.Planned planned = planned(AcceleratedWindowAggOperatorTest.CUMULATE);
        List<WindowAggHarnesses.Event> events = events(planned, 31, 150);
        for (int cut = 1; cut < events.size(); cut += 12) {
            List<String> stock = rescaled(planned, stockOperators(planned), events, cut, 1, 1);
            assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, 1, 1), "restored at " + cut);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 10, "windows fired: " + stock);
        }
    }

    @Test
    void stateWithFlinkTimersRestoresOntoFlinkTimers() throws Exception {
        // A checkpoint whose timers are in Flink's timer service (written on a backend whose order the
        // sidecar does not reproduce, or before the sidecar kept timers) keeps them there when restored
        // on the heap backend: 2 -> 3 subtasks of HOP windows, as stock.
        WindowAggHarnesses.Planned planned = planned(WINDOWS[2]);
        List<WindowAggHarnesses.Event> events = events(planned, 41, 1500);
        int cut = events.size() / 2;
        List<String> stock = rescaled(planned, stockOperators(planned), events, cut, 2, 3);
        int[] made = {0};
        List<String> ours = rescaled(planned, () -> made[0]++ < 2 ? planned.newAcceleratedOnFlinkTimers()
                : planned.newAccelerated(), events, cut, 2, 3);
        assertEquals(stock, ours);
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fired: " + stock);
    }

    /** Fresh stock operators, one per subtask. */
    private static Supplier<OneInputStreamOperator<RowData, RowData>> stockOperators(WindowAggHarnesses.Planned planned) {
        return () -> {
            try {
                return planned.newStock();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    private static void restoreAndRescale(WindowAggHarnesses.Planned planned) throws Exception {
        // RocksDB takes the rescaled legs only.
        int[][] scales = planned.backend() == WindowAggHarnesses.Backend.HEAP ? new int[][] {{1, 1}, {2, 1}, {2, 3}}
                : new int[][] {{2, 1}, {2, 3}};
        // CUMULATE: shorter streams (restoreAtEveryPoint restores it at many more points).
        int rows = planned.spec().cumulative() ? 700 : 1500;
        for (int[] scale : scales) {
            long seed = 11 + scale[0] * 10L + scale[1];
            List<WindowAggHarnesses.Event> events = events(planned, seed, rows);
            int cut = events.size() / 2;
            List<String> stock = rescaled(planned, stockOperators(planned), events, cut, scale[0], scale[1]);
            List<String> ours = rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]);
            assertEquals(stock, ours, scale[0] + " -> " + scale[1] + " subtasks");
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fired: " + stock);
        }
    }

    private static OperatorSubtaskState snapshotAfterHalf(WindowAggHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<WindowAggHarnesses.Event> events) throws Exception {
        return snapshotAfterHalf(planned, operator, events, MAX_PARALLELISM);
    }

    private static OperatorSubtaskState snapshotAfterHalf(WindowAggHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<WindowAggHarnesses.Event> events,
            int maxParallelism) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(operator, maxParallelism, 1, 0)) {
            harness.open();
            WindowAggHarnesses.feed(harness, events, 0, events.size() / 2);
            harness.prepareSnapshotPreBarrier(1);
            return harness.snapshot(1, 1);
        }
    }

    private static String restoreFailure(WindowAggHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            OperatorSubtaskState state) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(operator, MAX_PARALLELISM, 1, 0)) {
            Exception e = assertThrows(Exception.class, () -> {
                harness.initializeState(state);
                harness.open();
            });
            return ExceptionUtils.findThrowable(e, WindowAggStateException.class)
                    .orElseThrow(() -> new AssertionError("not a WindowAggStateException", e)).getMessage();
        }
    }

    @Test
    void stockStateIsRefusedNamingWhatToDo() throws Exception {
        WindowAggHarnesses.Planned planned = planned();
        OperatorSubtaskState stock = snapshotAfterHalf(planned, planned.newStock(), events(planned, 3, 400));
        String message = restoreFailure(planned, planned.newAccelerated(), stock);
        assertTrue(message.contains("written by stock Flink's window aggregate")
                && message.contains("accelerator.window-aggregate.enabled: false"), message);
    }

    @Test
    void stateOfAnotherQueryIsRefused() throws Exception {
        WindowAggHarnesses.Planned planned = planned();
        WindowAggHarnesses.Planned other = WindowAggHarnesses.plan(AcceleratedWindowAggOperatorTest.ALL_FUNCTIONS
                .replace("SUM(a)", "SUM(b)"), AcceleratedWindowAggOperatorTest.ONE_PHASE);
        OperatorSubtaskState ours = snapshotAfterHalf(planned, planned.newAccelerated(), events(planned, 3, 400));
        String message = restoreFailure(other, other.newAccelerated(), ours);
        assertTrue(message.contains("the query's window aggregate changed"), message);
    }

    @Test
    void heapTimersOnRocksDbAreRefusedNamingTheOption() throws Exception {
        // Flink would write them into raw keyed state at every checkpoint, where this operator's state is.
        WindowAggHarnesses.Planned planned = planned().on(WindowAggHarnesses.Backend.ROCKSDB_HEAP_TIMERS);
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            Exception e = assertThrows(Exception.class, harness::open);
            String message = ExceptionUtils.findThrowable(e, WindowAggStateException.class)
                    .orElseThrow(() -> new AssertionError("not a WindowAggStateException", e)).getMessage();
            assertTrue(message.contains("state.backend.rocksdb.timer-service.factory: ROCKSDB"), message);
        }
    }

    /**
     * The output after restoring a snapshot of {@code first} (taken after half the events) into
     * {@code second}, at max parallelism {@value #FEW_KEY_GROUPS}: many entries per key group.
     */
    private static List<String> afterRestore(WindowAggHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> first, OneInputStreamOperator<RowData, RowData> second,
            List<WindowAggHarnesses.Event> events) throws Exception {
        OperatorSubtaskState state = snapshotAfterHalf(planned, first, events, FEW_KEY_GROUPS);
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(second, FEW_KEY_GROUPS, 1, 0)) {
            harness.initializeState(state);
            harness.open();
            WindowAggHarnesses.feed(harness, events, events.size() / 2, events.size());
            return WindowAggHarnesses.output(harness, planned.outputType());
        }
    }

    @Test
    void aStateOfManyChunksRestoresInCallsOfAtMostMaxBytesAndEqualsStock() throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(AcceleratedWindowAggOperatorTest.MANY_KEYS,
                AcceleratedWindowAggOperatorTest.ONE_PHASE);
        // No watermark but the last: every (key, window) of the first half is in the snapshot.
        List<WindowAggHarnesses.Event> events = events(planned, 8, 600).stream()
                .filter(e -> e instanceof WindowAggHarnesses.Row
                        || ((WindowAggHarnesses.Mark) e).watermark() == Long.MAX_VALUE).toList();
        List<String> stock = afterRestore(planned, planned.newStock(), planned.newStock(), events);
        AcceleratedWindowAggOperator whole = planned.newAccelerated();
        assertEquals(stock, afterRestore(planned, planned.newAccelerated(), whole, events));
        // 1000 bytes: a dozen entries or so per call, so each key group takes several calls.
        AcceleratedWindowAggOperator chunked = planned.newAccelerated(1000, 1000);
        assertEquals(stock, afterRestore(planned, planned.newAccelerated(), chunked, events));
        assertEquals(FEW_KEY_GROUPS, whole.restoreCalls(), "one call per key group");
        assertTrue(chunked.restoreCalls() > 3 * whole.restoreCalls(),
                "chunks " + chunked.restoreCalls() + ", key groups " + whole.restoreCalls());
    }

    @Test
    void stockRefusesAcceleratedState() throws Exception {
        WindowAggHarnesses.Planned planned = planned();
        OperatorSubtaskState ours = snapshotAfterHalf(planned, planned.newAccelerated(), events(planned, 3, 400));
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(planned.newStock(), MAX_PARALLELISM, 1, 0)) {
            Exception e = assertThrows(Exception.class, () -> {
                harness.initializeState(ours);
                harness.open();
            });
            // Stock reads this operator's raw keyed state as its timers and fails on the first frame's
            // bytes (an unclear message, but no window is lost silently).
            assertTrue(ExceptionUtils.findThrowable(e, java.io.UTFDataFormatException.class).isPresent(),
                    ExceptionUtils.stringifyException(e));
        }
    }

    private static final String FINGERPRINT = "ab".repeat(32);
    private static final KeyGroupFrames FRAMES = WindowAggStateFormat.FORMAT.frames();

    @Test
    void markersOfANewerFormatOrAnotherQueryOrNoneAreRefused() {
        WindowAggStateFormat.checkMarkers(List.of("2:" + FINGERPRINT, "2:" + FINGERPRINT), FINGERPRINT);
        assertTrue(assertThrows(WindowAggStateException.class, () -> WindowAggStateFormat.checkMarkers(
                List.of("3:" + FINGERPRINT), FINGERPRINT)).getMessage().contains(
                        "written by a newer flink-accelerator (state format 3); this jar reads format 2"));
        // Format 1 held windows without their timers, which HOP windows need: refused, never mis-read.
        assertTrue(assertThrows(WindowAggStateException.class, () -> WindowAggStateFormat.checkMarkers(
                List.of("1:" + FINGERPRINT), FINGERPRINT)).getMessage().contains(
                        "written by an older flink-accelerator (state format 1, windows without their timers);"
                                + " this jar reads format 2"));
        assertTrue(assertThrows(WindowAggStateException.class, () -> WindowAggStateFormat.checkMarkers(
                List.of("2:" + "cd".repeat(32)), FINGERPRINT)).getMessage().contains(
                        "the query's window aggregate changed"));
        assertTrue(assertThrows(WindowAggStateException.class, () -> WindowAggStateFormat.checkMarkers(
                List.of(), FINGERPRINT)).getMessage().contains("written by stock Flink's window aggregate"));
    }

    @Test
    void framesRoundTripAndCorruptNewerOrForeignFramesAreRefused() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                BigIntVector ends = new BigIntVector("$window_end", allocator)) {
            ends.allocateNew(2);
            ends.set(0, 10_000);
            ends.set(1, 20_000);
            ends.setValueCount(2);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (VectorSchemaRoot rows = VectorSchemaRoot.of(ends)) {
                FRAMES.write(out, FINGERPRINT, rows);
            }
            FRAMES.write(out, FINGERPRINT, null);
            byte[] frames = out.toByteArray();
            ByteArrayInputStream in = new ByteArrayInputStream(frames);
            List<Long> read = new ArrayList<>();
            assertEquals(2, FRAMES.read(in, 7, FINGERPRINT, allocator,
                    (rows, more) -> read.add(((BigIntVector) rows.getVector("$window_end")).get(1))));
            assertEquals(List.of(20_000L), read);
            assertEquals(0, FRAMES.read(in, 8, FINGERPRINT, allocator, (rows, more) -> read.add(-1L)));
            assertEquals(List.of(20_000L), read, "no rows for a key group without state");

            byte[] badMagic = frames.clone();
            badMagic[0] = 'X';
            assertMessage("corrupt accelerated window state in key group 7", badMagic, allocator);
            byte[] newer = frames.clone();
            newer[4] = 3;
            assertMessage("written by a newer flink-accelerator (state format 3)", newer, allocator);
            byte[] older = frames.clone();
            older[4] = 1;
            assertMessage("written by an older flink-accelerator (state format 1", older, allocator);
            byte[] foreign = frames.clone();
            foreign[8] ^= 1;
            assertMessage("the query's window aggregate changed", foreign, allocator);
            byte[] truncated = java.util.Arrays.copyOf(frames, 60);
            assertMessage("corrupt accelerated window state in key group 7", truncated, allocator);
            byte[] badPayload = frames.clone();
            badPayload[WindowAggStateFormat.HEADER_BYTES + 5] ^= 0x7f;
            badPayload[WindowAggStateFormat.HEADER_BYTES + 9] ^= 0x7f;
            assertMessage("corrupt accelerated window state in key group 7", badPayload, allocator);
        }
    }

    private static void assertMessage(String expected, byte[] frames, BufferAllocator allocator) {
        WindowAggStateException e = assertThrows(WindowAggStateException.class, () -> {
            FRAMES.read(new ByteArrayInputStream(frames), 7, FINGERPRINT, allocator, (rows, more) -> {});
        });
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
