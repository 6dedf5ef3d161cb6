package org.flinkaccelerator.sidecar;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One stage running in a sidecar: the handle an accelerated operator holds. Batches go in and
 * come back as Arrow; nothing is created per record.
 */
public final class SidecarStage implements AutoCloseable {
    private final SidecarProcess sidecar;
    private final long id;
    private final BufferAllocator allocator;
    private boolean closed;

    private SidecarStage(SidecarProcess sidecar, long id, BufferAllocator allocator) {
        this.sidecar = sidecar;
        this.id = id;
        this.allocator = allocator;
    }

    /**
     * Opens the stage a descriptor (JSON, see docs/architecture.md "The stage contract") describes.
     * Results are allocated from {@code allocator}.
     */
    public static SidecarStage open(SidecarProcess sidecar, String descriptorJson, BufferAllocator allocator) {
        return new SidecarStage(sidecar, sidecar.openStage(descriptorJson), allocator);
    }

    public long id() {
        return id;
    }

    /**
     * The stage's output for {@code batch}. The caller owns (and closes) the returned root; a
     * failure in the stage is a {@link StageFailedException}, a dead or hung sidecar a
     * {@link SidecarException}.
     */
    public VectorSchemaRoot process(VectorSchemaRoot batch) {
        if (closed) {
            throw new IllegalStateException("stage " + id + " is closed");
        }
        return sidecar.process(id, batch, allocator);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            sidecar.closeStage(id);
        }
    }
}
