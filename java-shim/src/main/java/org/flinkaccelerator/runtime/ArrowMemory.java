package org.flinkaccelerator.runtime;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.runtime.memory.MemoryManager;
import org.apache.flink.runtime.memory.OpaqueMemoryResource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Arrow allocator of one accelerated operator and where its memory comes from, so the
 * accelerator stays inside Flink's memory budget: the slot's managed memory for Python processes
 * (use case PYTHON, which the accelerated transformations declare at slot scope, as PyFlink's
 * operators do for their Python worker). Flink gives every operator of a slot that declares a
 * slot-scope use case the whole share of that use case, so the share is reserved once per slot,
 * as one root allocator (a shared resource of the slot's MemoryManager), and each accelerated
 * operator of the slot draws from it through a child allocator capped at
 * {@code accelerator.memory.arrow-limit}. The last operator to close releases the reservation.
 * A slot without managed memory for them, or whose share another Python operator holds (PyFlink
 * reserves the whole PYTHON share for its worker), gets an allocator of its own limited by that
 * option, off Flink's budget, as before, with a warning: the job runs wherever stock Flink runs it.
 */
public final class ArrowMemory implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ArrowMemory.class);

    /** The shared resource's type in the slot's MemoryManager (also the reservation's owner there). */
    static final String SLOT_RESOURCE = "flink-accelerator-arrow";

    /** Where the memory comes from, when an operator's buffers reach their limit: what to change. */
    static final String MANAGED_OPTIONS = "give the slot more managed memory (taskmanager.memory.managed.size or"
            + " taskmanager.memory.managed.fraction), or Python processes a larger share of it (the PYTHON weight"
            + " of taskmanager.memory.managed.consumer-weights)";

    /** The slot's reservation, or null when the buffers are outside Flink's budget. */
    private final OpaqueMemoryResource<BufferAllocator> slot;
    private final BufferAllocator allocator;

    private ArrowMemory(OpaqueMemoryResource<BufferAllocator> slot, BufferAllocator allocator) {
        this.slot = slot;
        this.allocator = allocator;
    }

    /**
     * @param memoryManager the slot's
     * @param pythonFraction the fraction of the slot's managed memory Flink gives the operator's
     *     PYTHON use case (0 when the slot has none for it)
     * @param limit {@code accelerator.memory.arrow-limit}: the most one operator may hold
     */
    public static ArrowMemory open(String operator, MemoryManager memoryManager, double pythonFraction, long limit)
            throws Exception {
        long share = pythonFraction > 0 ? memoryManager.computeMemorySize(pythonFraction) : 0;
        if (share == 0) {
            LOG.warn("{}: the slot has no managed memory for Python processes (taskmanager.memory.managed.size,"
                    + " the PYTHON weight of taskmanager.memory.managed.consumer-weights), so its Arrow buffers"
                    + " (up to accelerator.memory.arrow-limit, {} bytes) are outside Flink's memory budget: count"
                    + " them in taskmanager.memory.task.off-heap.size", operator, limit);
            return outsideTheBudget(limit);
        }
        OpaqueMemoryResource<BufferAllocator> slot;
        try {
            slot = memoryManager.getSharedMemoryResourceForManagedMemory(SLOT_RESOURCE, RootAllocator::new,
                    pythonFraction);
        } catch (Exception e) {
            // Stock Flink runs this job, so the accelerator must too: without the reservation, as before.
            LOG.warn("{}: cannot reserve the slot's managed memory for Python processes ({} bytes) for its Arrow"
                    + " buffers ({}); another Python operator of the slot (a PyFlink function) may hold it. The"
                    + " buffers (up to accelerator.memory.arrow-limit, {} bytes) are outside Flink's memory budget:"
                    + " count them in taskmanager.memory.task.off-heap.size, or {}", operator, share, e.getMessage(),
                    limit, MANAGED_OPTIONS);
            return outsideTheBudget(limit);
        }
        try {
            return new ArrowMemory(slot, slot.getResourceHandle().newChildAllocator(operator, 0,
                    Math.min(limit, slot.getSize())));
        } catch (RuntimeException e) {
            slot.close();
            throw e;
        }
    }

    private static ArrowMemory outsideTheBudget(long limit) {
        return new ArrowMemory(null, new RootAllocator(limit));
    }

    public BufferAllocator allocator() {
        return allocator;
    }

    /** Bytes of managed memory the slot reserved for its accelerated operators' buffers; 0 when outside Flink's budget. */
    public long managedBytes() {
        return slot == null ? 0 : slot.getSize();
    }

    /** Why the operator's buffers could not grow while {@code doing}, and what to change. */
    public String limitReached(String doing) {
        long limit = allocator.getLimit();
        String held = allocator.getAllocatedMemory() + " bytes held";
        if (slot == null) {
            return "its Arrow buffers reached accelerator.memory.arrow-limit (" + limit + " bytes; " + held
                    + ") while " + doing + ". Raise accelerator.memory.arrow-limit (and"
                    + " taskmanager.memory.task.off-heap.size with it) or lower accelerator.batch.max-bytes";
        }
        return "its Arrow buffers reached their limit while " + doing + ": " + limit + " bytes, the smaller of"
                + " accelerator.memory.arrow-limit and the slot's managed memory for Python processes ("
                + slot.getSize() + " bytes, shared by the slot's accelerated operators); " + held + ", "
                + slot.getResourceHandle().getAllocatedMemory() + " by the slot. To fix it, " + MANAGED_OPTIONS
                + ", raise accelerator.memory.arrow-limit if it is the smaller, or lower accelerator.batch.max-bytes";
    }

    /** Closes the operator's allocator, then gives back its lease on the slot's reservation, even if that fails. */
    @Override
    public void close() throws Exception {
        try {
            allocator.close();
        } finally {
            if (slot != null) {
                slot.close();
            }
        }
    }
}
