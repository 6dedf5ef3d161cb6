package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;

/**
 * CHAR/VARCHAR (utf8) and BINARY/VARBINARY (binary) values from an Arrow variable-width vector.
 * Each read copies that one value into its own array: Flink's StringData and byte[] live on the
 * heap and the Arrow data does not. The array is exactly the value, which Flink's columnar
 * getBinary relies on to hand it out without a second copy; only an empty value gets a one-byte
 * array instead, because Flink's string functions divide by the size of a string's memory segment
 * (its own columnar vectors never hand out an empty one either).
 */
public final class ArrowBytesColumnVector implements BytesColumnVector {
    private static final byte[] EMPTY_VALUE_ARRAY = new byte[1];

    private final BaseVariableWidthVector vector;

    public ArrowBytesColumnVector(BaseVariableWidthVector vector) {
        this.vector = vector;
    }

    @Override
    public boolean isNullAt(int i) {
        return vector.isNull(i);
    }

    @Override
    public Bytes getBytes(int i) {
        int length = vector.getValueLength(i);
        if (length == 0) {
            return new Bytes(EMPTY_VALUE_ARRAY, 0, 0);
        }
        byte[] data = new byte[length];
        vector.getDataBuffer().getBytes(vector.getStartOffset(i), data, 0, length);
        return new Bytes(data, 0, length);
    }
}
