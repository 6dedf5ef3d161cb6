package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import org.apache.flink.configuration.ReadableConfig;
import org.flinkaccelerator.AcceleratorOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bytes of {@code /dev/shm} that the shared-memory regions of all accelerated stages in one
 * TaskManager (this JVM) may hold together, so that two stages whose batches each need a grown
 * region (a rows stage and the encode stage after it, both passing a message of several MB) take
 * turns instead of outgrowing a small {@code /dev/shm} where stock Flink runs.
 *
 * <p>Every region's initial size is counted while it exists ({@link #addBase}); it is never waited
 * for. Growing past it takes a {@link Grant} first: one control call at a time per grant, released
 * once the grown region is back at its initial size. A grant is admitted in arrival order when it
 * fits beside the bases and the grants held, or when no grant is held at all (a batch larger than
 * the whole budget then goes alone, and only {@code /dev/shm} itself can refuse it).
 *
 * <p>It cannot deadlock: a call waits only while it holds no grant, and a call holding one needs
 * nothing more of the budget before it releases it (its sidecar answers or the call fails, and
 * the grant goes back on every path), so the grants held always drain and the oldest waiter is
 * admitted. Chained operators in one task thread call one after the other, and each call gives its
 * grant back before the operator emits the answer, so a thread never waits on a grant of its own.
 */
public final class SharedMemoryBudget {
    private static final Logger LOG = LoggerFactory.getLogger(SharedMemoryBudget.class);
    private static SharedMemoryBudget taskManager;

    private final long limit;
    private final ArrayDeque<Object> waiting = new ArrayDeque<>();
    private long bases;
    private long granted;

    SharedMemoryBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a shared-memory budget must be positive, got " + limit);
        }
        this.limit = limit;
    }

    /**
     * This TaskManager's budget, made by the first accelerated operator that starts a sidecar:
     * {@code accelerator.shared-memory.budget} of the TaskManager's configuration, or, at 0, what
     * {@code /dev/shm} has free then.
     */
    public static synchronized SharedMemoryBudget ofTaskManager(ReadableConfig taskManagerConfig) {
        if (taskManager == null) {
            boolean configured = taskManagerConfig.get(AcceleratorOptions.SHARED_MEMORY_BUDGET).getBytes() > 0;
            taskManager = from(taskManagerConfig);
            LOG.info("The accelerated stages of this TaskManager share {} bytes of {} for their batches ({})",
                    taskManager.limit, SharedRegion.SHM_DIRECTORY, configured
                            ? AcceleratorOptions.SHARED_MEMORY_BUDGET.key()
                            : "its free space; set " + AcceleratorOptions.SHARED_MEMORY_BUDGET.key()
                                    + " when several TaskManagers share it");
        }
        return taskManager;
    }

    /** A budget as {@code config} sets it: the option, or when it is 0, what /dev/shm has free. */
    static SharedMemoryBudget from(ReadableConfig config) {
        long configured = config.get(AcceleratorOptions.SHARED_MEMORY_BUDGET).getBytes();
        return new SharedMemoryBudget(configured > 0 ? configured : freeBytes(SharedRegion.SHM_DIRECTORY));
    }

    /** What {@code directory}'s file system has free for this user; at least one page when it cannot say. */
    static long freeBytes(Path directory) {
        try {
            return Math.max(Files.getFileStore(directory).getUsableSpace(), 4096);
        } catch (IOException e) {
            // A missing /dev/shm fails the first region's creation with its own message.
            return 4096;
        }
    }

    public long limit() {
        return limit;
    }

    /** Counts a region's initial size while it exists. */
    synchronized void addBase(long bytes) {
        bases += bytes;
    }

    synchronized void removeBase(long bytes) {
        bases -= bytes;
        notifyAll();
    }

    /** Bytes the grants hold now. */
    synchronized long granted() {
        return granted;
    }

    /**
     * Waits until {@code bytes} of growth may be held, then holds them until the grant is
     * released. The caller must hold no other grant. {@code bytes <= 0} is an empty grant.
     */
    Grant acquire(long bytes) throws InterruptedException {
        if (bytes <= 0) {
            return new Grant(0);
        }
        Object ticket = new Object();
        synchronized (this) {
            waiting.add(ticket);
            try {
                while (waiting.peek() != ticket || !fits(bytes)) {
                    wait();
                }
                granted += bytes;
            } finally {
                waiting.remove(ticket);
                notifyAll();
            }
        }
        return new Grant(bytes);
    }

    private boolean fits(long bytes) {
        return granted == 0 || bases + granted + bytes <= limit;
    }

    /** Growth held by one call; released exactly once, also when released again. */
    final class Grant implements AutoCloseable {
        private long bytes;

        private Grant(long bytes) {
            this.bytes = bytes;
        }

        long bytes() {
            return bytes;
        }

        @Override
        public void close() {
            synchronized (SharedMemoryBudget.this) {
                granted -= bytes;
                bytes = 0;
                SharedMemoryBudget.this.notifyAll();
            }
        }
    }
}
