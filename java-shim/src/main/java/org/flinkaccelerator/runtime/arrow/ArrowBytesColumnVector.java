package org.flinkaccelerator.runtime.arrow;

import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;

/**
 * CHAR/VARCHAR (utf8) and BINARY/VARBINARY (binary) values from an Arrow variable-width vector.
 * Each read copies that one value into its own array: Flink's StringData and byte[] live on the
 * heap and the Arrow data does not. The array is exactly the value, which Flink's columnar
 * getBinary relies on to hand it out without a second copy.
 */
public final class ArrowBytesColumnVector implements BytesColumnVector {
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
        byte[] data = new byte[length];
        vector.getDataBuffer().getBytes(vector.getStartOffset(i), data, 0, length);
        return new Bytes(data, 0, length);
    }
}
