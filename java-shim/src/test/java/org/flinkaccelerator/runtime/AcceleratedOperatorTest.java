package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.memory.MemoryManager;
import org.apache.flink.runtime.memory.MemoryManagerBuilder;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.runtime.handover.HandedOverRowTypeInfo;
import org.flinkaccelerator.sidecar.Hang;
import org.flinkaccelerator.sidecar.SidecarException;
import org.junit.jupiter.api.Test;

/** The accelerated operator in Flink's operator harness, with a real sidecar running the identity stage. */
class AcceleratedOperatorTest {
    private static final String IDENTITY = "{\"protocol\": 1, \"kind\": \"identity\", \"name\": \"src-to-out\","
            + " \"input\": {\"fields\": [{\"name\": \"value\", \"type\": \"VARBINARY(2147483647)\"}]}}";

    private static final Duration HEARTBEAT = Duration.ofSeconds(30);

    private static String python() {
        return System.getProperty("accelerator.test.python", "python3");
    }

    private static OneInputStreamOperatorTestHarness<RowData, RowData> harness(String descriptor, int batchSize)
            throws Exception {
        return harness(descriptor, batchSize, AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue());
    }

    private static OneInputStreamOperatorTestHarness<RowData, RowData> harness(String descriptor, int batchSize,
            Duration sidecarTimeout) throws Exception {
        return harness(descriptor, batchSize, Long.MAX_VALUE, sidecarTimeout);
    }

    private static OneInputStreamOperatorTestHarness<RowData, RowData> harness(String descriptor, int batchSize,
            long batchBytes, Duration sidecarTimeout) throws Exception {
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec("src-to-out", descriptor, python(), batchSize,
                batchBytes, Duration.ofMinutes(10), sidecarTimeout, HEARTBEAT, RecordCoordinates.Layout.NONE);
        return new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec));
    }

    /** The sidecars this JVM started: the children of its sidecar fork server, and those it started directly. */
    private static List<ProcessHandle> sidecars() {
        return ProcessHandle.current().children()
                .flatMap(p -> hasArgument(p, "accelerator.sidecar.fork_server") ? p.children()
                        : hasArgument(p, "accelerator.sidecar") ? Stream.of(p) : Stream.empty())
                .toList();
    }

    private static boolean hasArgument(ProcessHandle process, String argument) {
        return process.info().arguments().map(a -> List.of(a).contains(argument)).orElse(false);
    }

    private static StreamRecord<RowData> message(String text) {
        return new StreamRecord<>(GenericRowData.of((Object) text.getBytes(StandardCharsets.UTF_8)));
    }

    /** The output so far: message texts, and "WM<n>" for watermarks, in order. */
    private static List<String> output(OneInputStreamOperatorTestHarness<RowData, RowData> harness) {
        List<String> out = new ArrayList<>();
        for (Object o : harness.getOutput()) {
            if (o instanceof Watermark) {
                out.add("WM" + ((Watermark) o).getTimestamp());
            } else {
                @SuppressWarnings("unchecked")
                RowData row = ((StreamRecord<RowData>) o).getValue();
                out.add(new String(row.getBinary(0), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    @Test
    void flushesOnSizeWatermarkSnapshotAndEndOfInput() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(IDENTITY, 3)) {
            harness.open();
            harness.processElement(message("a"));
            harness.processElement(message("b"));
            assertEquals(List.of(), output(harness), "a partial batch waits");
            harness.processElement(message("c"));
            assertEquals(List.of("a", "b", "c"), output(harness), "a full batch is sent at once");

            harness.processElement(message("d"));
            harness.processWatermark(new Watermark(7));
            assertEquals(List.of("a", "b", "c", "d", "WM7"), output(harness), "rows go before the watermark");

            harness.processElement(message("e"));
            harness.prepareSnapshotPreBarrier(1);
            assertEquals("e", output(harness).get(5), "nothing in flight across a barrier");

            harness.processElement(message("f"));
            harness.endInput();
            assertEquals(List.of("a", "b", "c", "d", "WM7", "e", "f"), output(harness));
        }
    }

    /**
     * The edge to the raw sink hands the operator's rows over uncopied (HandedOverRowTypeInfo), so
     * every message must come out as a row and value of its own that the operator never touches again.
     */
    @Test
    void everyMessageIsEmittedAsARowOfItsOwn() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(IDENTITY, 2)) {
            harness.setup(HandedOverRowTypeInfo.of(RowType.of(new VarBinaryType(VarBinaryType.MAX_LENGTH)))
                    .createSerializer(new SerializerConfigImpl()));
            harness.open();
            for (String text : List.of("a", "b", "c", "d")) {
                harness.processElement(message(text));
            }
            List<RowData> rows = new ArrayList<>();
            for (Object o : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                RowData row = ((StreamRecord<RowData>) o).getValue();
                rows.add(row);
            }
            assertEquals(List.of("a", "b", "c", "d"), output(harness), "rows emitted earlier keep their value");
            assertEquals(4, rows.stream().map(System::identityHashCode).distinct().count(), "one row per message");
            assertFalse(rows.get(0).getBinary(0) == rows.get(1).getBinary(0), "one value array per message");
        }
    }

    @Test
    void flushesWhenTheBatchHoldsMaxBytesAndALargerMessageTravelsAlone() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                harness(IDENTITY, 1000, 10, AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue())) {
            harness.open();
            harness.processElement(message("1234"));
            harness.processElement(message("5678"));
            assertEquals(List.of(), output(harness), "8 of 10 bytes: the batch waits");
            harness.processElement(message("90"));
            assertEquals(List.of("1234", "5678", "90"), output(harness), "10 bytes: the batch is sent");
            harness.processElement(message("a message longer than the bound"));
            assertEquals(4, output(harness).size(), "a message over the bound is sent alone at once");
        }
    }

    private static AcceleratedOperator withArrowLimit(long arrowLimit) {
        return new AcceleratedOperator(new AcceleratedSegmentSpec("src-to-out", IDENTITY, python(), 1000,
                Long.MAX_VALUE, Duration.ofMinutes(10), AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(), HEARTBEAT,
                RecordCoordinates.Layout.NONE, null, null, null, null, List.of(), arrowLimit));
    }

    @Test
    void aBatchOverTheArrowLimitFailsTheTaskNamingTheOption() throws Exception {
        AcceleratedOperator operator = withArrowLimit(1 << 20);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(operator)) {
            harness.open();
            assertEquals(1 << 20, operator.allocator().getLimit(), "no managed memory in the slot: the option alone");
            harness.processElement(message("x".repeat(100_000)));
            harness.endInput();
            assertEquals(1, output(harness).size(), "a message well under the limit goes through");
            SidecarException e = assertThrows(SidecarException.class, () -> {
                for (int i = 0; i < 20; i++) {
                    harness.processElement(message("y".repeat(100_000)));
                }
            });
            assertTrue(e.getMessage().contains("accelerator.memory.arrow-limit (1048576 bytes")
                    && e.getMessage().contains("while holding a batch of")
                    && e.getMessage().contains("taskmanager.memory.task.off-heap.size"), e.getMessage());
        }
    }

    @Test
    void flushesWhenTheMaxDelayPasses() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(IDENTITY, 1000)) {
            harness.setProcessingTime(0);
            harness.open();
            harness.processElement(message("late"));
            assertEquals(List.of(), output(harness));
            harness.setProcessingTime(Duration.ofMinutes(10).toMillis());
            assertEquals(List.of("late"), output(harness));
        }
    }

    @Test
    void aFailedBatchFailsTheTaskNamingTheSegmentAndTheBatch() throws Exception {
        String wrongColumns = IDENTITY.replace("\"name\": \"value\"", "\"name\": \"other\"");
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(wrongColumns, 1)) {
            harness.open();
            Exception e = assertThrows(RuntimeException.class, () -> harness.processElement(message("x")));
            assertTrue(e.getMessage().startsWith("Accelerated[src-to-out]: batch 1 of 1 messages failed"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("are not the stage's input fields"), e.getMessage());
        }
    }

    @Test
    void aHungSidecarFailsTheTaskWithinTheConfiguredTimeout() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        List<ProcessHandle> before = sidecars();
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(IDENTITY, 1, timeout)) {
            harness.open();
            List<ProcessHandle> started = new ArrayList<>(sidecars());
            started.removeAll(before);
            assertEquals(1, started.size(), "one sidecar per operator: " + started);
            ProcessHandle sidecar = started.get(0);
            Hang.stop(sidecar.pid());

            long startedAt = System.nanoTime();
            Exception e = assertThrows(RuntimeException.class, () -> harness.processElement(message("x")));
            Duration took = Duration.ofNanos(System.nanoTime() - startedAt);
            assertTrue(took.compareTo(timeout) >= 0 && took.compareTo(timeout.plusSeconds(5)) < 0,
                    "failed after " + took + " with a timeout of " + timeout);
            assertTrue(e.getMessage().startsWith("Accelerated[src-to-out]: batch 1 of 1 messages failed: The Python"
                    + " sidecar (pid " + sidecar.pid() + ") did not answer process(stage"), e.getMessage());
            assertTrue(e.getMessage().contains("within 2000 ms and was killed"), e.getMessage());
            assertTrue(e.getMessage().contains("raise accelerator.sidecar.timeout"), e.getMessage());
            sidecar.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void aSidecarThatHangsWhileTheInputIsIdleFailsTheTaskAtTheNextHeartbeat() throws Exception {
        Duration timeout = Duration.ofSeconds(2);
        List<ProcessHandle> before = sidecars();
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(IDENTITY, 1, timeout)) {
            harness.setProcessingTime(0);
            harness.open();
            List<ProcessHandle> started = new ArrayList<>(sidecars());
            started.removeAll(before);
            ProcessHandle sidecar = started.get(0);
            harness.processElement(message("a"));
            harness.setProcessingTime(HEARTBEAT.toMillis());  // a batch went through: no check needed
            harness.setProcessingTime(2 * HEARTBEAT.toMillis());  // idle: checked, and it answers
            assertTrue(sidecar.isAlive());
            Hang.stop(sidecar.pid());

            long startedAt = System.nanoTime();
            Exception e = assertThrows(RuntimeException.class, () -> harness.setProcessingTime(3 * HEARTBEAT.toMillis()));
            Duration took = Duration.ofNanos(System.nanoTime() - startedAt);
            assertTrue(took.compareTo(timeout) >= 0 && took.compareTo(timeout.plusSeconds(5)) < 0,
                    "failed after " + took + " with a timeout of " + timeout);
            String message = String.valueOf(e.getMessage()) + " / " + String.valueOf(e.getCause());
            assertTrue(message.contains("Accelerated[src-to-out]: idle for 30000 ms"), message);
            assertTrue(message.contains("did not answer a liveness check within 2000 ms and was killed"), message);
            sidecar.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(List.of("a"), output(harness));
        }
    }

    @Test
    void aDescriptorTheSidecarRefusesFailsOpenNamingTheSegment() throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                harness("{\"protocol\": 1, \"kind\": \"nope\", \"name\": \"src-to-out\"}", 10)) {
            Exception e = assertThrows(Exception.class, harness::open);
            assertInstanceOf(RuntimeException.class, e);
            assertTrue(e.getMessage().contains("Accelerated[src-to-out]"), e.getMessage());
            assertTrue(e.getMessage().contains("unknown stage kind 'nope'"), e.getMessage());
        }
    }

    // Managed memory: the slot's share for Python processes, as Flink's job graph generator hands
    // it to an operator that declares the PYTHON use case at slot scope.

    private static final long SLOT_MEMORY = 64L << 20;

    private static MemoryManager slotMemory(long bytes) {
        return MemoryManagerBuilder.newBuilder().setMemorySize(bytes).build();
    }

    /**
     * A harness whose slot has {@code memory}; with {@code windowAggregate}, an OPERATOR consumer
     * (a window aggregate) shares the slot, so the operator's config lists that use case at 0.
     */
    private static OneInputStreamOperatorTestHarness<RowData, RowData> inSlot(AcceleratedOperator operator,
            MemoryManager memory, boolean windowAggregate) throws Exception {
        MockEnvironment environment = new MockEnvironmentBuilder().setMemoryManager(memory).build();
        OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(operator, environment);
        // The harness configures an operator with OPERATOR memory and a state backend in managed
        // memory; configure it as Flink configures an accelerated operator in a slot whose state
        // is on the heap.
        StreamConfig config = harness.getStreamConfig();
        config.setStateBackendUsesManagedMemory(false);
        config.getConfiguration().removeKey("managedMemFraction." + ManagedMemoryUseCase.OPERATOR);
        config.setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.PYTHON, 1.0);
        if (windowAggregate) {
            config.setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.OPERATOR, 0.0);
        }
        return harness;
    }

    @Test
    void reservesTheSlotsManagedMemoryForPythonAtOpenAsItsArrowLimitAndReleasesItAtClose() throws Exception {
        MemoryManager memory = slotMemory(SLOT_MEMORY);
        AcceleratedOperator operator = withArrowLimit(AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = inSlot(operator, memory, false)) {
            harness.open();
            assertEquals(0, memory.availableMemory(), "the slot's only consumer kind: all of its managed memory");
            assertEquals(SLOT_MEMORY, operator.allocator().getLimit());
            harness.processElement(message("a"));
            harness.endInput();
            assertEquals(List.of("a"), output(harness));
        }
        assertEquals(SLOT_MEMORY, memory.availableMemory());
        assertTrue(memory.verifyEmpty());
    }

    @Test
    void whenAnotherPythonOperatorHoldsTheSlotsShareTheOperatorStillRunsOutsideTheBudget() throws Exception {
        MemoryManager memory = slotMemory(SLOT_MEMORY);
        // What PyFlink's operators do for their worker: the whole PYTHON share, under a resource of their own.
        var pyflink = memory.getSharedMemoryResourceForManagedMemory("python-worker", size -> (AutoCloseable) () -> { }, 1.0);
        AcceleratedOperator operator = withArrowLimit(AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = inSlot(operator, memory, false)) {
            harness.open();
            assertEquals(AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes(), operator.allocator().getLimit());
            harness.processElement(message("a"));
            harness.endInput();
            assertEquals(List.of("a"), output(harness));
        }
        pyflink.close();
        assertTrue(memory.verifyEmpty());
    }

    @Test
    void aWindowAggregateInTheSlotKeepsItsShareByTheConsumerWeights() throws Exception {
        MemoryManager memory = slotMemory(SLOT_MEMORY);
        AcceleratedOperator operator = withArrowLimit(AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = inSlot(operator, memory, true)) {
            harness.open();
            long python = memory.computeMemorySize(30 / (70 + 30.0));  // default weights OPERATOR:70, PYTHON:30
            assertEquals(python, operator.allocator().getLimit());
            assertEquals(SLOT_MEMORY - python, memory.availableMemory(), "the rest stays for the window aggregate");
        }
        assertTrue(memory.verifyEmpty());
    }

    @Test
    void theAcceleratedOperatorsOfASlotShareOneReservationEachCappedByTheArrowLimit() throws Exception {
        MemoryManager memory = slotMemory(SLOT_MEMORY);
        AcceleratedOperator first = withArrowLimit(1 << 20);
        AcceleratedOperator second = withArrowLimit(1 << 20);
        OneInputStreamOperatorTestHarness<RowData, RowData> one = inSlot(first, memory, false);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> two = inSlot(second, memory, false)) {
            try {
                one.open();
                two.open();
                assertEquals(0, memory.availableMemory(), "one reservation of the slot's share, not one per operator");
                assertEquals(1 << 20, first.allocator().getLimit(), "accelerator.memory.arrow-limit caps the share");
            } finally {
                one.close();
            }
            assertEquals(0, memory.availableMemory(), "still leased by the second operator");
        }
        assertTrue(memory.verifyEmpty(), "the last operator to close releases it");
    }

    @Test
    void aBatchOverTheSlotsShareFailsTheTaskNamingTheManagedMemoryOptionsAndReleasesIt() throws Exception {
        MemoryManager memory = slotMemory(2 << 20);
        AcceleratedOperator operator = withArrowLimit(AcceleratorOptions.MEMORY_ARROW_LIMIT.defaultValue().getBytes());
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = inSlot(operator, memory, false)) {
            harness.open();
            assertEquals(2 << 20, operator.allocator().getLimit());
            SidecarException e = assertThrows(SidecarException.class, () -> {
                for (int i = 0; i < 40; i++) {
                    harness.processElement(message("y".repeat(100_000)));
                }
            });
            for (String option : List.of("taskmanager.memory.managed.size", "taskmanager.memory.managed.fraction",
                    "PYTHON weight of taskmanager.memory.managed.consumer-weights", "accelerator.batch.max-bytes",
                    "accelerator.memory.arrow-limit")) {
                assertTrue(e.getMessage().contains(option), option + " in: " + e.getMessage());
            }
            assertTrue(e.getMessage().contains("2097152 bytes, the smaller of"), e.getMessage());
            assertFalse(e.getMessage().contains("off-heap"), "managed memory is not task off-heap memory");
        }
        assertTrue(memory.verifyEmpty());
    }

    @Test
    void anOpenThatFailsGivesTheReservationBack() throws Exception {
        MemoryManager memory = slotMemory(SLOT_MEMORY);
        AcceleratedOperator refused = new AcceleratedOperator(new AcceleratedSegmentSpec("src-to-out",
                "{\"protocol\": 1, \"kind\": \"nope\", \"name\": \"src-to-out\"}", python(), 10, Long.MAX_VALUE,
                Duration.ofMinutes(10), AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue(), HEARTBEAT,
                RecordCoordinates.Layout.NONE));
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = inSlot(refused, memory, false)) {
            assertThrows(Exception.class, harness::open);
            assertEquals(0, memory.availableMemory(), "reserved before the sidecar refused the stage");
        }
        assertTrue(memory.verifyEmpty(), "Flink closes an operator whose open failed");
    }
}
