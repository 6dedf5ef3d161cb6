package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;

/**
 * INT, DATE and TIME values read in place from a 32-bit Arrow vector (int32, date32 days,
 * time32 milliseconds): Flink holds all three as an int of the same meaning.
 */
public final class ArrowInt32ColumnVector implements IntColumnVector {
    private final BaseFixedWidthVector vector;

    public ArrowInt32ColumnVector(BaseFixedWidthVector vector) {
        if (vector.getTypeWidth() != Integer.BYTES) {
            throw new IllegalArgumentException("Arrow column '" + vector.getName() + "' of type "
                    + vector.getField().getType() + " does not hold 32-bit values");
        }
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public int getInt(int i) {
        return vector.getDataBuffer().getInt((long) i * Integer.BYTES);
    }
}
