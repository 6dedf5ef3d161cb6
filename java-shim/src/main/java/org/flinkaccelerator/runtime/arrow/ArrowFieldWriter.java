package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.FieldVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.RowData;

/**
 * Writes one Flink field into an Arrow vector at a given index, from a row's field or an array's
 * element, through RowData's typed getters (no boxing, and the declared precision is passed so
 * compact TIMESTAMP/DECIMAL values of binary rows are read right). Made by {@link ArrowFieldWriters}.
 */
public abstract class ArrowFieldWriter {
    private final FieldVector vector;

    protected ArrowFieldWriter(FieldVector vector) {
        this.vector = vector;
    }

    /** Writes field {@code pos} of {@code row} (null or not) at {@code index}. */
    public final void write(int index, RowData row, int pos) {
        if (row.isNullAt(pos)) {
            writeNull(index);
        } else {
            writeValue(index, row, pos);
        }
    }

    /** Writes element {@code pos} of {@code array} (null or not) at {@code index}. */
    public final void write(int index, ArrayData array, int pos) {
        if (array.isNullAt(pos)) {
            writeNull(index);
        } else {
            writeValue(index, array, pos);
        }
    }

    /** Marks {@code index} null. */
    public void writeNull(int index) {
        vector.setNull(index);
    }

    protected abstract void writeValue(int index, RowData row, int pos);

    protected abstract void writeValue(int index, ArrayData array, int pos);
}
