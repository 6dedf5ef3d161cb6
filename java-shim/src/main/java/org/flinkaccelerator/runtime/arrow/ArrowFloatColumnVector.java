package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.Float4Vector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;

/** FLOAT values read in place from an Arrow float32 vector. */
public final class ArrowFloatColumnVector implements FloatColumnVector {
    private final Float4Vector vector;

    public ArrowFloatColumnVector(Float4Vector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public float getFloat(int i) {
        return vector.get(i);
    }
}
