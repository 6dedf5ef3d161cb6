package org.flinkaccelerator.runtime;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The Arrow batch an accelerated operator fills: one binary {@code value} column holding each
 * Kafka message's value bytes, copied once, unparsed. Reused from one flush to the next.
 */
final class ValueBatch implements AutoCloseable {
    static final String VALUE = "value";

    private final VarBinaryVector values;
    private final VectorSchemaRoot root;
    private int rows;

    ValueBatch(BufferAllocator allocator) {
        this.values = new VarBinaryVector(VALUE, allocator);
        this.values.allocateNew();
        this.root = new VectorSchemaRoot(List.of(values));
    }

    /** Appends one message value; a null value (a tombstone) stays null. */
    void append(byte[] value) {
        if (value == null) {
            values.setNull(rows);
        } else {
            values.setSafe(rows, value);
        }
        rows++;
    }

    int rows() {
        return rows;
    }

    boolean isEmpty() {
        return rows == 0;
    }

    /** The rows appended since the last {@link #clear()}, as a root; valid until the next append. */
    VectorSchemaRoot root() {
        values.setValueCount(rows);
        root.setRowCount(rows);
        return root;
    }

    /** Forgets the rows; keeps the buffers for the next batch. */
    void clear() {
        values.reset();
        root.setRowCount(0);
        rows = 0;
    }

    @Override
    public void close() {
        root.close();
    }
}
