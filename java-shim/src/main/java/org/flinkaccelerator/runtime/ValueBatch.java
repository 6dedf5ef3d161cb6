package org.flinkaccelerator.runtime;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;

/**
 * The Arrow batch an accelerated operator fills: one binary {@code value} column holding each
 * Kafka message's value bytes, copied once, unparsed, then one column per Kafka metadata column
 * the segment reads ({@link MetadataColumns}). Reused from one flush to the next.
 */
final class ValueBatch implements InputBatch {
    static final String VALUE = "value";
    /** The sidecar's answer column holding each message's key bytes, when the sink writes keys. */
    static final String KEY = "key";

    private final VarBinaryVector values;
    private final List<MetadataColumns.Column> metadata;
    private final VectorSchemaRoot root;
    private int rows;
    private long bytes;

    ValueBatch(BufferAllocator allocator) {
        this(allocator, List.of());
    }

    ValueBatch(BufferAllocator allocator, List<MetadataColumns.Column> metadata) {
        this.values = new VarBinaryVector(VALUE, allocator);
        this.values.allocateNew();
        this.metadata = List.copyOf(metadata);
        List<FieldVector> vectors = new ArrayList<>();
        vectors.add(values);
        for (MetadataColumns.Column column : metadata) {
            vectors.add(column.vector());
        }
        this.root = new VectorSchemaRoot(vectors);
    }

    /** Appends one message value; a null value (a tombstone) stays null. */
    void append(byte[] value) {
        if (value == null) {
            values.setNull(rows);
        } else {
            values.setSafe(rows, value);
            bytes += value.length;
        }
        rows++;
    }

    /** Appends one row of the raw source: the value bytes (field 0), then the metadata columns. */
    @Override
    public void append(RowData row) {
        for (int i = 0; i < metadata.size(); i++) {
            MetadataColumns.set(metadata.get(i), rows, row, i + 1);
        }
        append(row.isNullAt(0) ? null : row.getBinary(0));
    }

    @Override
    public int rows() {
        return rows;
    }

    /** The message values' bytes (metadata columns are a few bytes a row). */
    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public VectorSchemaRoot root() {
        for (FieldVector vector : root.getFieldVectors()) {
            vector.setValueCount(rows);
        }
        root.setRowCount(rows);
        return root;
    }

    /**
     * Forgets the rows, keeping the buffers. The value bytes are not zeroed (Arrow's reset() would
     * clear the whole data buffer, up to twice the largest batch, once per batch): the next batch
     * writes its offsets from zero and its bytes over the old ones, and only the bytes its offsets
     * cover are sent.
     */
    @Override
    public void clear() {
        values.getValidityBuffer().setZero(0, values.getValidityBuffer().capacity());
        values.getOffsetBuffer().setZero(0, values.getOffsetBuffer().capacity());
        values.setValueCount(0);
        for (MetadataColumns.Column column : metadata) {
            column.vector().reset();
        }
        root.setRowCount(0);
        rows = 0;
        bytes = 0;
    }

    @Override
    public void close() {
        root.close();
    }
}
