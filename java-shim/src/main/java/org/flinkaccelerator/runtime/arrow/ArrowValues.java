package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.columnar.vector.BooleanColumnVector;
import org.apache.flink.table.data.columnar.vector.ByteColumnVector;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.data.columnar.vector.DecimalColumnVector;
import org.apache.flink.table.data.columnar.vector.DoubleColumnVector;
import org.apache.flink.table.data.columnar.vector.FloatColumnVector;
import org.apache.flink.table.data.columnar.vector.IntColumnVector;
import org.apache.flink.table.data.columnar.vector.LongColumnVector;
import org.apache.flink.table.data.columnar.vector.ShortColumnVector;
import org.apache.flink.table.data.columnar.vector.TimestampColumnVector;

/**
 * Value {@code i} of one of the {@link ArrowColumnVectors}, as the Flink data type its column
 * holds: the one place {@link ArrowRowData} and {@link ArrowArrayData} read a column.
 */
final class ArrowValues {
    private ArrowValues() {}

    static boolean getBoolean(ColumnVector column, int i) {
        return ((BooleanColumnVector) column).getBoolean(i);
    }

    static byte getByte(ColumnVector column, int i) {
        return ((ByteColumnVector) column).getByte(i);
    }

    static short getShort(ColumnVector column, int i) {
        return ((ShortColumnVector) column).getShort(i);
    }

    static int getInt(ColumnVector column, int i) {
        return ((IntColumnVector) column).getInt(i);
    }

    static long getLong(ColumnVector column, int i) {
        return ((LongColumnVector) column).getLong(i);
    }

    static float getFloat(ColumnVector column, int i) {
        return ((FloatColumnVector) column).getFloat(i);
    }

    static double getDouble(ColumnVector column, int i) {
        return ((DoubleColumnVector) column).getDouble(i);
    }

    static StringData getString(ColumnVector column, int i) {
        return ((ArrowBytesColumnVector) column).getString(i);
    }

    static byte[] getBinary(ColumnVector column, int i) {
        return ((ArrowBytesColumnVector) column).getBinary(i);
    }

    static DecimalData getDecimal(ColumnVector column, int i, int precision, int scale) {
        return ((DecimalColumnVector) column).getDecimal(i, precision, scale);
    }

    static TimestampData getTimestamp(ColumnVector column, int i, int precision) {
        return ((TimestampColumnVector) column).getTimestamp(i, precision);
    }

    static ArrayData getArray(ColumnVector column, int i) {
        return ((ArrowListColumnVector) column).getArray(i);
    }

    static MapData getMap(ColumnVector column, int i) {
        return ((ArrowMapColumnVector) column).getMap(i);
    }

    static RowData getRow(ColumnVector column, int i) {
        return ((ArrowStructColumnVector) column).getRow(i);
    }

    static UnsupportedOperationException unsupported(String what) {
        return new UnsupportedOperationException(what + " is never in an Arrow batch of the accelerator's"
                + " (ArrowTypes has no layout for it)");
    }
}
