package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

/** Nested ROW values from an Arrow struct vector: each row is a view on the field columns at its index. */
public final class ArrowStructColumnVector implements ColumnVector {
    private final StructVector vector;
    private final ColumnVector[] fields;

    /** {@code fields} read the struct's children, in order. */
    public ArrowStructColumnVector(StructVector vector, ColumnVector[] fields) {
        this.vector = vector;
        this.fields = fields;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    public RowData getRow(int i) {
        return new ArrowRowData(fields, i);
    }
}
