package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.TinyIntVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;

/** TINYINT values read in place from an Arrow int8 vector. */
public final class ArrowTinyIntColumnVector implements ByteColumnVector {
    private final TinyIntVector vector;

    public ArrowTinyIntColumnVector(TinyIntVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public byte getByte(int i) {
        return vector.get(i);
    }
}
