package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BigIntVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;

/** BIGINT values read in place from an Arrow int64 vector. */
public final class ArrowBigIntColumnVector implements LongColumnVector {
    private final BigIntVector vector;

    public ArrowBigIntColumnVector(BigIntVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public long getLong(int i) {
        return vector.get(i);
    }
}
