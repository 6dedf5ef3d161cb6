package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.flinkaccelerator.AcceleratorOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The TaskManager's one budget for the /dev/shm regions of all its accelerated stages. */
class SharedMemoryBudgetTest {
    private static final long MB = 1L << 20;
    private static final String IDENTITY = "{\"protocol\": 1, \"kind\": \"identity\", \"name\": \"identity-test\"}";

    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void growthThatDoesNotFitWaitsUntilAnotherGrantIsReleased() throws Exception {
        SharedMemoryBudget budget = new SharedMemoryBudget(64 * MB);
        budget.addBase(16 * MB);
        SharedMemoryBudget.Grant first = budget.acquire(30 * MB);
        Future<SharedMemoryBudget.Grant> second = threads.submit(() -> budget.acquire(30 * MB));
        Thread.sleep(200);
        assertFalse(second.isDone(), "16 + 30 + 30 MB granted on a 64 MB budget");
        first.close();
        try (SharedMemoryBudget.Grant granted = second.get(5, TimeUnit.SECONDS)) {
            assertEquals(30 * MB, budget.granted());
        }
        assertEquals(0, budget.granted());
        first.close();
        assertEquals(0, budget.granted(), "a grant released twice gave its bytes back twice");
    }

    @Test
    void grantsAreAdmittedInArrivalOrderSoALargeOneIsNotStarved() throws Exception {
        SharedMemoryBudget budget = new SharedMemoryBudget(64 * MB);
        SharedMemoryBudget.Grant held = budget.acquire(40 * MB);
        Future<SharedMemoryBudget.Grant> large = threads.submit(() -> budget.acquire(40 * MB));
        Thread.sleep(200);
        Future<SharedMemoryBudget.Grant> small = threads.submit(() -> budget.acquire(10 * MB));
        Thread.sleep(200);
        assertFalse(small.isDone(), "a later, smaller grant overtook the waiting larger one");
        held.close();
        large.get(5, TimeUnit.SECONDS).close();
        small.get(5, TimeUnit.SECONDS).close();
    }

    @Test
    void growthLargerThanTheWholeBudgetGoesAloneRatherThanWaitingForever() throws Exception {
        SharedMemoryBudget budget = new SharedMemoryBudget(64 * MB);
        budget.addBase(60 * MB);
        SharedMemoryBudget.Grant small = budget.acquire(2 * MB);
        Future<SharedMemoryBudget.Grant> huge = threads.submit(() -> budget.acquire(100 * MB));
        Thread.sleep(200);
        assertFalse(huge.isDone(), "went beside another grant");
        small.close();
        try (SharedMemoryBudget.Grant alone = huge.get(5, TimeUnit.SECONDS)) {
            assertEquals(100 * MB, budget.granted());
        }
        assertEquals(0, budget.acquire(0).bytes(), "no growth, no grant");
    }

    @Test
    void theTaskManagerOptionSetsTheBudgetElseTheFreeSpaceOfDevShm() throws IOException {
        assertEquals(48 * MB, SharedMemoryBudget.from(
                new Configuration().set(AcceleratorOptions.SHARED_MEMORY_BUDGET, MemorySize.ofMebiBytes(48))).limit());
        long free = Files.getFileStore(SharedRegion.SHM_DIRECTORY).getUsableSpace();
        long derived = SharedMemoryBudget.from(new Configuration()).limit();
        assertTrue(Math.abs(derived - free) < 64 * MB, derived + " bytes, but /dev/shm has " + free + " free");
        assertTrue(SharedMemoryBudget.ofTaskManager(new Configuration())
                == SharedMemoryBudget.ofTaskManager(new Configuration()), "one budget per TaskManager");
    }

    /**
     * Two sidecars (two operators of one TaskManager) pass batches of 8 MB, each larger than its
     * regions' initial 4 MB, at the same time: together their grown regions would need 4 x 8 MB
     * beside the 16 MB of initial regions, and the budget allows 16 + 20 MB. Sampled all along,
     * the four region files never hold more than the budget, and every batch comes back whole.
     */
    @Test
    void twoSidecarsPassingLargeBatchesAtOnceStayWithinTheBudget() throws Exception {
        long initial = SidecarSettings.DEFAULT_INITIAL_REGION_BYTES;
        SharedMemoryBudget budget = new SharedMemoryBudget(4 * initial + 20 * MB);
        try (BufferAllocator allocator = new RootAllocator();
                SidecarProcess one = SidecarProcess.start(TestPython.settings(), budget);
                SidecarProcess two = SidecarProcess.start(TestPython.settings(), budget)) {
            List<Path> regions = List.of(one.requestRegion(), one.responseRegion(), two.requestRegion(),
                    two.responseRegion());
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicLong most = new AtomicLong();
            CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
                while (running.get()) {
                    most.accumulateAndGet(totalSize(regions), Math::max);
                }
            }, threads);
            List<Future<Integer>> senders = new ArrayList<>();
            for (SidecarProcess sidecar : List.of(one, two)) {
                senders.add(threads.submit(() -> {
                    int identical = 0;
                    try (BufferAllocator own = allocator.newChildAllocator("sender", 0, Long.MAX_VALUE);
                            SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, own)) {
                        for (int i = 0; i < 6; i++) {
                            try (VectorSchemaRoot sent = Batches.kafkaRecords(own, 800, 10_000);
                                    VectorSchemaRoot received = stage.process(sent)) {
                                identical += sent.equals(received) ? 1 : 0;
                            }
                        }
                    }
                    return identical;
                }));
            }
            for (Future<Integer> sender : senders) {
                assertEquals(6, sender.get(120, TimeUnit.SECONDS), "batches that came back changed");
            }
            running.set(false);
            sampler.get(5, TimeUnit.SECONDS);
            assertTrue(most.get() > 4 * initial, "no region grew: the batches prove nothing (" + most.get() + ")");
            assertTrue(most.get() <= budget.limit(), "the regions held " + most.get() + " bytes at once, over the "
                    + budget.limit() + " bytes of the budget");
            assertEquals(4 * initial, totalSize(regions), "a region stayed grown after its call");
            assertEquals(0, budget.granted());
        }
    }

    private static long totalSize(List<Path> regions) {
        long total = 0;
        for (Path region : regions) {
            try {
                total += Files.size(region);
            } catch (NoSuchFileException e) {
                // closed meanwhile
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return total;
    }
}
