package org.flinkaccelerator.runtime;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;

/**
 * The Arrow batch an accelerated operator fills from its input rows until it sends it to the
 * sidecar: Kafka message bytes ({@link ValueBatch}) or a stock operator's rows ({@link RowsBatch}).
 * Reused from one flush to the next.
 */
interface InputBatch extends AutoCloseable {
    /** Appends one input row. */
    void append(RowData row);

    int rows();

    /** About how many bytes the rows take, for {@code accelerator.batch.max-bytes}. */
    long bytes();

    default boolean isEmpty() {
        return rows() == 0;
    }

    /**
     * The change kind ({@code RowKind} byte) of each row appended since the last {@link #clear()},
     * or null when every one is an insert (the batch of Kafka messages, or of an insert-only input).
     */
    default byte[] changeKinds() {
        return null;
    }

    /** The rows appended since the last {@link #clear()}, as a root; valid until the next append. */
    VectorSchemaRoot root();

    /** Forgets the rows; keeps the buffers for the next batch. */
    void clear();

    @Override
    void close();
}
