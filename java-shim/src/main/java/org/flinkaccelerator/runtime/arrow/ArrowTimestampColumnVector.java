package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

/**
 * TIMESTAMP and TIMESTAMP_LTZ values from the sidecar's (millis, nanos) struct (for TIMESTAMP_LTZ
 * the instant in UTC): Flink's TimestampData pair, read back as it is, whatever the declared precision.
 */
public final class ArrowTimestampColumnVector implements TimestampColumnVector {
    private final StructVector vector;
    private final BigIntVector millis;
    private final IntVector nanos;

    public ArrowTimestampColumnVector(StructVector vector) {
        this.vector = vector;
        this.millis = (BigIntVector) vector.getChild(ArrowTypes.MILLIS);
        this.nanos = (IntVector) vector.getChild(ArrowTypes.NANOS);
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        return TimestampData.fromEpochMillis(millis.get(i), nanos.get(i));
    }
}
