package org.flinkaccelerator.runtime.arrow;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.columnar.vector.BytesColumnVector;

/**
 * CHAR/VARCHAR (utf8) and BINARY/VARBINARY (binary) values from an Arrow variable-width vector.
 * Each read copies that one value into its own array: Flink's StringData and byte[] live on the
 * heap and the Arrow data does not.
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
        byte[] data = getBinary(i);
        return new Bytes(data, 0, data.length);
    }

    /** Value {@code i} as a new array holding exactly its bytes. */
    public byte[] getBinary(int i) {
        int length = vector.getValueLength(i);
        byte[] data = new byte[length];
        vector.getDataBuffer().getBytes(vector.getStartOffset(i), data, 0, length);
        return data;
    }

    /**
     * Value {@code i} as a string that knows its Java text as well as its UTF-8 bytes, like the
     * strings every stock format's decoder makes ({@code StringData.fromString}). Flink's string
     * code takes other paths for a string without Java text: {@code compareTo} compares UTF-8 bytes
     * instead of UTF-16 units (another order for characters beyond U+FFFF), and TRIM's test for a
     * single-space argument reads the first byte only (and divides by zero on a copied empty
     * string). A stock operator fed these rows must see what it sees behind a stock source.
     */
    public StringData getString(int i) {
        byte[] data = getBinary(i);
        return new BinaryStringData(new MemorySegment[] {MemorySegmentFactory.wrap(data)}, 0, data.length,
                new String(data, StandardCharsets.UTF_8));
    }
}
