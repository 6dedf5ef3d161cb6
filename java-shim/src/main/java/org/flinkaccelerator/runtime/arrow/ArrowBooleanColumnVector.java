package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BitVector;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;

/** BOOLEAN values read in place from an Arrow bit vector. */
public final class ArrowBooleanColumnVector implements BooleanColumnVector {
    private final BitVector vector;

    public ArrowBooleanColumnVector(BitVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public boolean getBoolean(int i) {
        return vector.get(i) != 0;
    }
}
