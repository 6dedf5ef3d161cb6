package org.flinkaccelerator.runtime;

import java.util.BitSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;

/**
 * The Arrow batch of an encode stage: the rows a stock operator hands it, one column per field in
 * the sidecar's layout, copied once. A string goes as the Java string Flink's json and csv
 * serializers write ({@code arrow.JavaStrings}); a lone surrogate in it fails the row, but in the
 * columns the planner found only travel to a json encoder ({@code arrow.LoneSurrogates}).
 */
final class RowsBatch implements InputBatch {
    private final VectorSchemaRoot root;
    private final RowDataArrowWriter writer;

    RowsBatch(RowType rowType, BitSet keepsLoneSurrogates, BufferAllocator allocator) {
        this.root = RowDataArrowWriter.createRoot(rowType, allocator);
        this.writer = new RowDataArrowWriter(rowType, root, keepsLoneSurrogates);
    }

    @Override
    public void append(RowData row) {
        writer.write(row);
    }

    @Override
    public int rows() {
        return writer.rowCount();
    }

    @Override
    public VectorSchemaRoot root() {
        return writer.finish();
    }

    @Override
    public void clear() {
        writer.reset();
    }

    @Override
    public void close() {
        root.close();
    }
}
