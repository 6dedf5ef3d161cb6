package org.flinkaccelerator.runtime.arrow;

import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.types.logical.RowType;

/**
 * The rows of a {@link VectorSchemaRoot} as Flink {@code RowData} a stock operator can consume:
 * each row is an {@link ArrowRowData} over {@link ArrowColumnVectors} wrappers, so fields are read
 * from the Arrow buffers when asked for, and no row is copied.
 *
 * <p>Columns are matched to the row type's fields by position. The view follows the root: after
 * the root is loaded with the next batch (same vectors, new buffers) it reads that batch, so the
 * rows it handed out before are only valid until then; an operator that keeps a row copies it
 * with Flink's {@code RowDataSerializer}. Rows are INSERTs (Arrow batches carry no row kind).
 */
public final class ArrowRowBatch {
    private final VectorSchemaRoot root;
    private final ColumnVector[] columns;
    private final ArrowRowData reusedRow;

    public ArrowRowBatch(RowType rowType, VectorSchemaRoot root) {
        List<FieldVector> vectors = root.getFieldVectors();
        if (vectors.size() != rowType.getFieldCount()) {
            throw new IllegalArgumentException("Arrow batch has " + vectors.size() + " columns " + root.getSchema()
                    + " but row type " + rowType.asSummaryString() + " has " + rowType.getFieldCount() + " fields");
        }
        ColumnVector[] wrappers = new ColumnVector[vectors.size()];
        for (int i = 0; i < wrappers.length; i++) {
            wrappers[i] = ArrowColumnVectors.of(rowType.getTypeAt(i), vectors.get(i));
        }
        this.root = root;
        this.columns = wrappers;
        this.reusedRow = new ArrowRowData(columns, 0);
    }

    /** Rows in the root's current batch. */
    public int rowCount() {
        return root.getRowCount();
    }

    /** A new view of row {@code rowId}. */
    public ArrowRowData row(int rowId) {
        return new ArrowRowData(columns, checkRow(rowId));
    }

    /**
     * One view, moved to row {@code rowId} on each call: for emitting rows one after another
     * without an object per row (the previous row it returned now reads {@code rowId}).
     */
    public ArrowRowData reusedRow(int rowId) {
        reusedRow.setRowId(checkRow(rowId));
        return reusedRow;
    }

    private int checkRow(int rowId) {
        if (rowId < 0 || rowId >= root.getRowCount()) {
            throw new IndexOutOfBoundsException("row " + rowId + " of an Arrow batch of " + root.getRowCount() + " rows");
        }
        return rowId;
    }
}
