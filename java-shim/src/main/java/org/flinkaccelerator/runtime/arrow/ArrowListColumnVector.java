package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.complex.ListVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.columnar.ColumnarArrayData;
import org.apache.flink.table.data.columnar.vector.ArrayColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

/** ARRAY values from an Arrow list vector: each array is a window on the element column, not a copy. */
public final class ArrowListColumnVector implements ArrayColumnVector {
    private final ListVector vector;
    private final ColumnVector elements;

    /** {@code elements} reads the list's data vector. */
    public ArrowListColumnVector(ListVector vector, ColumnVector elements) {
        this.vector = vector;
        this.elements = elements;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public ArrayData getArray(int i) {
        int start = vector.getElementStartIndex(i);
        return new ColumnarArrayData(elements, start, vector.getElementEndIndex(i) - start);
    }
}
