package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.DecimalVector;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;

/**
 * DECIMAL(p, s) values from an Arrow decimal128 vector of the same precision and scale. Up to
 * precision 18 Flink keeps the unscaled value in a long, which is the low half of the 128-bit
 * little-endian Arrow value; above that it needs a BigDecimal anyway.
 */
public final class ArrowDecimalColumnVector implements DecimalColumnVector {
    private final DecimalVector vector;

    public ArrowDecimalColumnVector(DecimalVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public DecimalData getDecimal(int i, int precision, int scale) {
        if (DecimalData.isCompact(precision)) {
            long unscaled = vector.getDataBuffer().getLong((long) i * DecimalVector.TYPE_WIDTH);
            return DecimalData.fromUnscaledLong(unscaled, precision, scale);
        }
        return DecimalData.fromBigDecimal(vector.getObject(i), precision, scale);
    }
}
