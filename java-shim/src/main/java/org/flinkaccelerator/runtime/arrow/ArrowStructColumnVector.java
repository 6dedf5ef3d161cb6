package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.columnar.ColumnarRowData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.RowColumnVector;
import org.apache.flink.table.data.columnar.vector.VectorizedColumnBatch;

/** Nested ROW values from an Arrow struct vector: each row is a view on the field columns at its index. */
public final class ArrowStructColumnVector implements RowColumnVector {
    private final StructVector vector;
    private final VectorizedColumnBatch fields;

    /** {@code fields} read the struct's children, in order. */
    public ArrowStructColumnVector(StructVector vector, ColumnVector[] fields) {
        this.vector = vector;
        this.fields = new VectorizedColumnBatch(fields);
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public ColumnarRowData getRow(int i) {
        return new ColumnarRowData(fields, i);
    }
}
