package org.flinkaccelerator.sidecar;

import java.util.List;
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
        return expect(1, batch).get(0);
    }

    /**
     * A rows stage's output for {@code batch}: the rows of each of its {@code branches} outputs,
     * and, when {@code marked} (a watermarked rows stage), one row of marks per message of the
     * batch (docs/architecture.md, "The stage contract"). Fails as {@link #process}.
     */
    public RowsAnswer processRows(VectorSchemaRoot batch, int branches, boolean marked) {
        List<VectorSchemaRoot> answer = expect(branches + (marked ? 1 : 0), batch);
        return new RowsAnswer(answer.subList(0, branches), marked ? answer.get(branches) : null);
    }

    /** A rows stage's answer: each branch's rows, and the marks (null when not watermarked); closing it closes them. */
    public record RowsAnswer(List<VectorSchemaRoot> branches, VectorSchemaRoot marks) implements AutoCloseable {
        @Override
        public void close() {
            branches.forEach(VectorSchemaRoot::close);
            if (marks != null) {
                marks.close();
            }
        }
    }

    private List<VectorSchemaRoot> expect(int streams, VectorSchemaRoot batch) {
        if (closed) {
            throw new IllegalStateException("stage " + id + " is closed");
        }
        List<VectorSchemaRoot> answer = sidecar.process(id, batch, allocator);
        if (answer.size() != streams) {
            answer.forEach(VectorSchemaRoot::close);
            throw new SidecarException("stage " + id + " answered with " + answer.size() + " Arrow streams where "
                    + streams + " were expected: the sidecar runs another version of the stage contract");
        }
        return answer;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            sidecar.closeStage(id);
        }
    }
}
