package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.TimeStampVector;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

/**
 * TIMESTAMP and TIMESTAMP_LTZ values from an Arrow nanosecond timestamp vector (nanoseconds since
 * the epoch; for TIMESTAMP_LTZ the instant in UTC). Every nanosecond digit is kept whatever the
 * declared precision, as Flink does.
 */
public final class ArrowTimestampColumnVector implements TimestampColumnVector {
    private static final long NANOS_PER_MILLI = 1_000_000L;

    private final TimeStampVector vector;

    public ArrowTimestampColumnVector(TimeStampVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        long nanos = vector.get(i);
        return TimestampData.fromEpochMillis(
                Math.floorDiv(nanos, NANOS_PER_MILLI), (int) Math.floorMod(nanos, NANOS_PER_MILLI));
    }
}
