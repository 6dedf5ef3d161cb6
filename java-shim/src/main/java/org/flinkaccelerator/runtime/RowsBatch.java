package org.flinkaccelerator.runtime;

import java.util.Arrays;
import java.util.BitSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;

/**
 * The Arrow batch of an encode stage: the rows a stock operator hands it, one column per field in
 * the sidecar's layout, copied once. A string goes as the Java string Flink's json and csv
 * serializers write ({@code arrow.JavaStrings}); a lone surrogate in it fails the row, but in the
 * columns the planner found only travel to a json encoder ({@code arrow.LoneSurrogates}). Each
 * row's change kind is kept beside the columns: the sidecar encodes every row alike, and the
 * operator gives each message the kind of its row, so an upsert sink writes a DELETE (or
 * UPDATE_BEFORE) as Flink's own sink does, a tombstone with the key.
 */
final class RowsBatch implements InputBatch {
    private final VectorSchemaRoot root;
    private final RowDataArrowWriter writer;
    private byte[] kinds = new byte[64];
    private boolean updates;

    RowsBatch(RowType rowType, BitSet keepsLoneSurrogates, BufferAllocator allocator) {
        this.root = RowDataArrowWriter.createRoot(rowType, allocator);
        this.writer = new RowDataArrowWriter(rowType, root, keepsLoneSurrogates);
    }

    @Override
    public void append(RowData row) {
        int at = writer.rowCount();
        writer.write(row);
        if (at == kinds.length) {
            kinds = Arrays.copyOf(kinds, kinds.length * 2);
        }
        RowKind kind = row.getRowKind();
        kinds[at] = kind.toByteValue();
        updates |= kind != RowKind.INSERT;
    }

    @Override
    public byte[] changeKinds() {
        return updates ? Arrays.copyOf(kinds, writer.rowCount()) : null;
    }

    @Override
    public int rows() {
        return writer.rowCount();
    }

    /**
     * The bytes of the strings and binaries the rows hold, nested ones included (where a batch's
     * size can grow without bound; the fixed-width columns are bounded by the row count). Read from
     * the last value each vector set, since a vector's offsets after a trailing null are only
     * filled when the batch is finished.
     */
    @Override
    public long bytes() {
        long bytes = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            bytes += variableBytes(vector);
        }
        return bytes;
    }

    private static long variableBytes(FieldVector vector) {
        if (vector instanceof BaseVariableWidthVector variable) {
            int last = variable.getLastSet();
            return last < 0 ? 0 : variable.getEndOffset(last);
        }
        long bytes = 0;
        for (FieldVector child : vector.getChildrenFromFields()) {
            bytes += variableBytes(child);
        }
        return bytes;
    }

    @Override
    public VectorSchemaRoot root() {
        return writer.finish();
    }

    @Override
    public void clear() {
        writer.reset();
        updates = false;
    }

    @Override
    public void close() {
        root.close();
    }
}
