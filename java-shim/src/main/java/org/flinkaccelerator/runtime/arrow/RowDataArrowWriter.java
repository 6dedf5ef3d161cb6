package org.flinkaccelerator.runtime.arrow;

import java.util.BitSet;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Appends Flink {@link RowData} of one row type to a {@link VectorSchemaRoot} in the sidecar's
 * layout ({@link ArrowTypes}): the direction opposite to {@link ArrowRowBatch}. Any RowData
 * works (generic, binary, columnar). Reusable: {@link #finish()} makes the rows so far the root's
 * batch, {@link #reset()} starts the next batch in the same buffers.
 */
public final class RowDataArrowWriter {
    private final VectorSchemaRoot root;
    private final RowType rowType;
    private final ArrowFieldWriter[] fields;
    private int rows;

    /**
     * A writer into {@code root}, whose vectors must have the layout {@code ArrowTypes.schema(rowType)}
     * gives, that refuses a string holding a lone surrogate.
     */
    public RowDataArrowWriter(RowType rowType, VectorSchemaRoot root) {
        this(rowType, root, new BitSet());
    }

    /**
     * A writer into {@code root} (as above) whose columns at {@code keepsLoneSurrogates} write a
     * string's lone surrogate in its three-byte form ({@link LoneSurrogates#KEPT}).
     */
    public RowDataArrowWriter(RowType rowType, VectorSchemaRoot root, BitSet keepsLoneSurrogates) {
        List<FieldVector> vectors = root.getFieldVectors();
        if (!root.getSchema().equals(ArrowTypes.schema(rowType))) {
            throw new IllegalArgumentException("Arrow schema " + root.getSchema() + " is not the layout of row type "
                    + rowType.asSummaryString() + ", which is " + ArrowTypes.schema(rowType)
                    + "; create the root with RowDataArrowWriter.createRoot");
        }
        this.root = root;
        this.rowType = rowType;
        this.fields = new ArrowFieldWriter[vectors.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = ArrowFieldWriters.of(rowType.getTypeAt(i), vectors.get(i),
                    keepsLoneSurrogates.get(i) ? LoneSurrogates.KEPT : LoneSurrogates.REFUSED);
        }
    }

    /** An empty root of {@code rowType}'s layout, with buffers allocated; the caller closes it. */
    public static VectorSchemaRoot createRoot(RowType rowType, BufferAllocator allocator) {
        VectorSchemaRoot root = VectorSchemaRoot.create(ArrowTypes.schema(rowType), allocator);
        try {
            root.allocateNew();
        } catch (RuntimeException e) {
            root.close();
            throw e;
        }
        return root;
    }

    /** Appends one row. */
    public void write(RowData row) {
        if (row.getArity() != fields.length) {
            throw new IllegalArgumentException("row " + rows + " of the Arrow batch has " + row.getArity()
                    + " fields but row type " + rowType.asSummaryString() + " has " + fields.length);
        }
        for (int i = 0; i < fields.length; i++) {
            try {
                fields[i].write(rows, row, i);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("cannot write field '" + rowType.getFieldNames().get(i)
                        + "' of row " + rows + " of the Arrow batch: " + e.getMessage(), e);
            }
        }
        rows++;
    }

    /** Rows written since the last {@link #reset()}. */
    public int rowCount() {
        return rows;
    }

    /** The root holding the rows written so far (value counts set); valid until the next write or reset. */
    public VectorSchemaRoot finish() {
        root.setRowCount(rows);
        return root;
    }

    /** Forgets the rows; keeps the buffers for the next batch. */
    public void reset() {
        for (FieldVector vector : root.getFieldVectors()) {
            vector.reset();
        }
        root.setRowCount(0);
        rows = 0;
    }

    /** The root this writer fills. */
    public VectorSchemaRoot root() {
        return root;
    }
}
