package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.SmallIntVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;

/** SMALLINT values read in place from an Arrow int16 vector. */
public final class ArrowSmallIntColumnVector implements ShortColumnVector {
    private final SmallIntVector vector;

    public ArrowSmallIntColumnVector(SmallIntVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public short getShort(int i) {
        return vector.get(i);
    }
}
