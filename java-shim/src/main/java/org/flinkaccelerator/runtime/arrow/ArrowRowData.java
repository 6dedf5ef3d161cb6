package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RawValueData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.types.RowKind;

/**
 * One row of Arrow columns as a Flink {@link RowData}, read in place. Flink's own
 * {@code ColumnarRowData} would do, but its strings lack their Java text (see
 * {@link ArrowBytesColumnVector#getString}) and it cannot be subclassed.
 */
public final class ArrowRowData extends VariantUnsupportedRowData {
    private final ColumnVector[] columns;
    private int rowId;
    private RowKind kind = RowKind.INSERT;

    ArrowRowData(ColumnVector[] columns, int rowId) {
        this.columns = columns;
        this.rowId = rowId;
    }

    /** Moves this view to row {@code rowId} of the same columns. */
    void setRowId(int rowId) {
        this.rowId = rowId;
    }

    @Override
    public int getArity() {
        return columns.length;
    }

    @Override
    public RowKind getRowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return columns[pos].isNullAt(rowId);
    }

    @Override
    public boolean getBoolean(int pos) {
        return ArrowValues.getBoolean(columns[pos], rowId);
    }

    @Override
    public byte getByte(int pos) {
        return ArrowValues.getByte(columns[pos], rowId);
    }

    @Override
    public short getShort(int pos) {
        return ArrowValues.getShort(columns[pos], rowId);
    }

    @Override
    public int getInt(int pos) {
        return ArrowValues.getInt(columns[pos], rowId);
    }

    @Override
    public long getLong(int pos) {
        return ArrowValues.getLong(columns[pos], rowId);
    }

    @Override
    public float getFloat(int pos) {
        return ArrowValues.getFloat(columns[pos], rowId);
    }

    @Override
    public double getDouble(int pos) {
        return ArrowValues.getDouble(columns[pos], rowId);
    }

    @Override
    public StringData getString(int pos) {
        return ArrowValues.getString(columns[pos], rowId);
    }

    @Override
    public DecimalData getDecimal(int pos, int precision, int scale) {
        return ArrowValues.getDecimal(columns[pos], rowId, precision, scale);
    }

    @Override
    public TimestampData getTimestamp(int pos, int precision) {
        return ArrowValues.getTimestamp(columns[pos], rowId, precision);
    }

    @Override
    public <T> RawValueData<T> getRawValue(int pos) {
        throw ArrowValues.unsupported("RAW");
    }

    @Override
    public byte[] getBinary(int pos) {
        return ArrowValues.getBinary(columns[pos], rowId);
    }

    @Override
    public ArrayData getArray(int pos) {
        return ArrowValues.getArray(columns[pos], rowId);
    }

    @Override
    public MapData getMap(int pos) {
        return ArrowValues.getMap(columns[pos], rowId);
    }

    @Override
    public RowData getRow(int pos, int numFields) {
        return ArrowValues.getRow(columns[pos], rowId);
    }

    @Override
    public boolean equals(Object o) {
        throw new UnsupportedOperationException("ArrowRowData is a view; compare copies made with RowDataSerializer");
    }

    @Override
    public int hashCode() {
        throw new UnsupportedOperationException("ArrowRowData is a view; hash copies made with RowDataSerializer");
    }
}
