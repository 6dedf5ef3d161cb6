package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.Float8Vector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;

/** DOUBLE values read in place from an Arrow float64 vector. */
public final class ArrowDoubleColumnVector implements DoubleColumnVector {
    private final Float8Vector vector;

    public ArrowDoubleColumnVector(Float8Vector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public double getDouble(int i) {
        return vector.get(i);
    }
}
