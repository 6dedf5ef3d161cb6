package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

/**
 * TIMESTAMP and TIMESTAMP_LTZ values from the sidecar's (millis, nanos) struct (for TIMESTAMP_LTZ
 * the instant in UTC): Flink's TimestampData pair, read back as it is, whatever the declared precision.
 *
 * <p>What a NULL reads as when asked without {@code isNullAt} depends on the row object the rows
 * stand in for, and Flink's sink reads its rowtime that way (its {@code StreamRecordTimestampInserter}):
 * the GenericRowData of a format's decoder and the rows of a Calc hand it null, and the sink fails
 * the job; the BinaryRowData of a keyed exchange or of state hand it epoch 0 (the zeros under the
 * null slot), and the sink writes the row.
 */
public final class ArrowTimestampColumnVector implements TimestampColumnVector {
    private final StructVector vector;
    private final BigIntVector millis;
    private final IntVector nanos;
    private final boolean nullReadsNull;

    /** A NULL reads as epoch 0, as from a BinaryRowData. */
    public ArrowTimestampColumnVector(StructVector vector) {
        this(vector, false);
    }

    /** With {@code nullReadsNull}, a NULL reads as null, as from a GenericRowData; else as epoch 0. */
    public ArrowTimestampColumnVector(StructVector vector, boolean nullReadsNull) {
        this.vector = vector;
        this.millis = (BigIntVector) vector.getChild(ArrowTypes.MILLIS);
        this.nanos = (IntVector) vector.getChild(ArrowTypes.NANOS);
        this.nullReadsNull = nullReadsNull;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public TimestampData getTimestamp(int i, int precision) {
        if (nullReadsNull && vector.isNull(i)) {
            return null;
        }
        return TimestampData.fromEpochMillis(millis.get(i), nanos.get(i));
    }
}
