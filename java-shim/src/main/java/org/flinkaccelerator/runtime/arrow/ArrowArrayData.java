package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;

/**
 * Elements {@code offset .. offset + size} of an Arrow element column as a Flink
 * {@link ArrayData}, read in place: the window Flink's element getters read an ARRAY's elements
 * or a MAP's keys and values through ({@link #values}).
 */
final class ArrowArrayData extends VariantUnsupportedArrayData {
    private final ColumnVector elements;
    private final int offset;
    private final int size;

    private ArrowArrayData(ColumnVector elements, int offset, int size) {
        this.elements = elements;
        this.offset = offset;
        this.size = size;
    }

    /** Elements {@code offset .. offset + size} of {@code elements}, as {@code getter} reads them. */
    static Object[] values(ColumnVector elements, ArrayData.ElementGetter getter, int offset, int size) {
        ArrowArrayData window = new ArrowArrayData(elements, offset, size);
        Object[] values = new Object[size];
        for (int i = 0; i < size; i++) {
            values[i] = getter.getElementOrNull(window, i);
        }
        return values;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isNullAt(int pos) {
        return elements.isNullAt(offset + pos);
    }

    @Override
    public boolean getBoolean(int pos) {
        return ArrowValues.getBoolean(elements, offset + pos);
    }

    @Override
    public byte getByte(int pos) {
        return ArrowValues.getByte(elements, offset + pos);
    }

    @Override
    public short getShort(int pos) {
        return ArrowValues.getShort(elements, offset + pos);
    }

    @Override
    public int getInt(int pos) {
        return ArrowValues.getInt(elements, offset + pos);
    }

    @Override
    public long getLong(int pos) {
        return ArrowValues.getLong(elements, offset + pos);
    }

    @Override
    public float getFloat(int pos) {
        return ArrowValues.getFloat(elements, offset + pos);
    }

    @Override
    public double getDouble(int pos) {
        return ArrowValues.getDouble(elements, offset + pos);
    }

    @Override
    public StringData getString(int pos) {
        return ArrowValues.getString(elements, offset + pos);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return ArrowValues.getDecimal(elements, offset + pos, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return ArrowValues.getTimestamp(elements, offset + pos, precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw ArrowValues.unsupported("RAW");
    }

    @Override
    public byte[] getBinary(int pos) {
        return ArrowValues.getBinary(elements, offset + pos);
    }

    @Override
    public ArrayData getArray(int pos) {
        return ArrowValues.getArray(elements, offset + pos);
    }

    @Override
    public MapData getMap(int pos) {
        return ArrowValues.getMap(elements, offset + pos);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return ArrowValues.getRow(elements, offset + pos);
    }

    @Override
    public boolean[] toBooleanArray() {
        throw notEscaping();
    }

    @Override
    public byte[] toByteArray() {
        throw notEscaping();
    }

    @Override
    public short[] toShortArray() {
        throw notEscaping();
    }

    @Override
    public int[] toIntArray() {
        throw notEscaping();
    }

    @Override
    public long[] toLongArray() {
        throw notEscaping();
    }

    @Override
    public float[] toFloatArray() {
        throw notEscaping();
    }

    @Override
    public double[] toDoubleArray() {
        throw notEscaping();
    }

    private static UnsupportedOperationException notEscaping() {
        return new UnsupportedOperationException("ArrowArrayData is only read through element getters");
    }
}
