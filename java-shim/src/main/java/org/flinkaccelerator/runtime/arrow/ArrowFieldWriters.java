package org.flinkaccelerator.runtime.arrow;

import java.util.List;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * {@link ArrowFieldWriter}s for every type {@link ArrowTypes} maps, each writing a vector of the
 * layout {@code ArrowTypes} gives the type. Values are appended with the vectors' {@code setSafe}
 * methods, which grow the buffers as needed.
 */
public final class ArrowFieldWriters {
    private ArrowFieldWriters() {}

    /**
     * A writer of {@code type}'s values into {@code vector} (created from {@code ArrowTypes.field});
     * its strings, nested ones included, treat a lone surrogate as {@code loneSurrogates} says.
     */
    public static ArrowFieldWriter of(LogicalType type, FieldVector vector, LoneSurrogates loneSurrogates) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new BooleanWriter((BitVector) vector);
            case TINYINT:
                return new TinyIntWriter((TinyIntVector) vector);
            case SMALLINT:
                return new SmallIntWriter((SmallIntVector) vector);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new Int32Writer((BaseFixedWidthVector) vector);
            case BIGINT:
                return new BigIntWriter((BigIntVector) vector);
            case FLOAT:
                return new FloatWriter((Float4Vector) vector);
            case DOUBLE:
                return new DoubleWriter((Float8Vector) vector);
            case DECIMAL:
                return new DecimalWriter((DecimalVector) vector, (DecimalType) type);
            case CHAR:
            case VARCHAR:
                return new StringWriter((BaseVariableWidthVector) vector, loneSurrogates);
            case BINARY:
            case VARBINARY:
                return new BinaryWriter((BaseVariableWidthVector) vector);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new TimestampWriter((StructVector) vector, LogicalTypeChecks.getPrecision(type));
            case ARRAY: {
                ListVector list = (ListVector) vector;
                return new ArrayWriter(list, of(type.getChildren().get(0), list.getDataVector(), loneSurrogates));
            }
            case MAP: {
                MapVector map = (MapVector) vector;
                StructVector entries = (StructVector) map.getDataVector();
                List<FieldVector> kv = entries.getChildrenFromFields();
                return new MapWriter(map, entries,
                        of(type.getChildren().get(0), kv.get(0), loneSurrogates),
                        of(type.getChildren().get(1), kv.get(1), loneSurrogates));
            }
            case ROW: {
                StructVector struct = (StructVector) vector;
                List<RowType.RowField> fields = ((RowType) type).getFields();
                List<FieldVector> children = struct.getChildrenFromFields();
                ArrowFieldWriter[] writers = new ArrowFieldWriter[fields.size()];
                for (int i = 0; i < writers.length; i++) {
                    writers[i] = of(fields.get(i).getType(), children.get(i), loneSurrogates);
                }
                return new RowWriter(struct, writers);
            }
            default:
                ArrowTypes.leafType(vector.getName(), type); // throws, naming what is supported
                throw new AssertionError(type);
        }
    }

    private static final class BooleanWriter extends ArrowFieldWriter {
        private final BitVector v;

        BooleanWriter(BitVector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getBoolean(pos) ? 1 : 0);
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getBoolean(pos) ? 1 : 0);
        }
    }

    private static final class TinyIntWriter extends ArrowFieldWriter {
        private final TinyIntVector v;

        TinyIntWriter(TinyIntVector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getByte(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getByte(pos));
        }
    }

    private static final class SmallIntWriter extends ArrowFieldWriter {
        private final SmallIntVector v;

        SmallIntWriter(SmallIntVector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getShort(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getShort(pos));
        }
    }

    /** INT, DATE (days) and TIME (milliseconds of the day): an int into a 32-bit vector. */
    private static final class Int32Writer extends ArrowFieldWriter {
        private final BaseFixedWidthVector v;

        Int32Writer(BaseFixedWidthVector v) {
            super(v);
            if (v.getTypeWidth() != Integer.BYTES) {
                throw new IllegalArgumentException("Arrow column '" + v.getName() + "' of type "
                        + v.getField().getType() + " does not hold 32-bit values");
            }
            this.v = v;
        }

        private void set(int index, int value) {
            while (index >= v.getValueCapacity()) {
                v.reAlloc();
            }
            v.getDataBuffer().setInt((long) index * Integer.BYTES, value);
            v.setIndexDefined(index);
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getInt(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getInt(pos));
        }
    }

    private static final class BigIntWriter extends ArrowFieldWriter {
        private final BigIntVector v;

        BigIntWriter(BigIntVector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getLong(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getLong(pos));
        }
    }

    private static final class FloatWriter extends ArrowFieldWriter {
        private final Float4Vector v;

        FloatWriter(Float4Vector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getFloat(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getFloat(pos));
        }
    }

    private static final class DoubleWriter extends ArrowFieldWriter {
        private final Float8Vector v;

        DoubleWriter(Float8Vector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getDouble(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getDouble(pos));
        }
    }

    /** DECIMAL(p, s) into decimal128(p, s): the unscaled long when Flink has one, else the BigDecimal. */
    private static final class DecimalWriter extends ArrowFieldWriter {
        private final DecimalVector v;
        private final int precision;
        private final int scale;

        DecimalWriter(DecimalVector v, DecimalType type) {
            super(v);
            this.v = v;
            this.precision = type.getPrecision();
            this.scale = type.getScale();
        }

        private void set(int index, DecimalData value) {
            if (value.scale() != scale) {
                throw new IllegalArgumentException("DECIMAL value " + value + " has scale " + value.scale()
                        + " but the column is DECIMAL(" + precision + ", " + scale + ")");
            }
            if (value.isCompact()) {
                v.setSafe(index, value.toUnscaledLong());
            } else {
                v.setSafe(index, value.toBigDecimal());
            }
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getDecimal(pos, precision, scale));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getDecimal(pos, precision, scale));
        }
    }

    private static final class StringWriter extends ArrowFieldWriter {
        private final BaseVariableWidthVector v;
        private final LoneSurrogates loneSurrogates;

        StringWriter(BaseVariableWidthVector v, LoneSurrogates loneSurrogates) {
            super(v);
            this.v = v;
            this.loneSurrogates = loneSurrogates;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, JavaStrings.utf8(row.getString(pos), loneSurrogates));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, JavaStrings.utf8(array.getString(pos), loneSurrogates));
        }
    }

    private static final class BinaryWriter extends ArrowFieldWriter {
        private final BaseVariableWidthVector v;

        BinaryWriter(BaseVariableWidthVector v) {
            super(v);
            this.v = v;
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            v.setSafe(index, row.getBinary(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            v.setSafe(index, array.getBinary(pos));
        }
    }

    /**
     * TIMESTAMP / TIMESTAMP_LTZ into the (millis, nanos) struct: Flink's TimestampData pair as it
     * is, so every value is exact. A null leaves 0 in both children, which are NOT NULL.
     */
    private static final class TimestampWriter extends ArrowFieldWriter {
        private final StructVector v;
        private final BigIntVector millis;
        private final IntVector nanos;
        private final int precision;

        TimestampWriter(StructVector v, int precision) {
            super(v);
            this.v = v;
            this.millis = (BigIntVector) v.getChild(ArrowTypes.MILLIS);
            this.nanos = (IntVector) v.getChild(ArrowTypes.NANOS);
            this.precision = precision;
        }

        private void set(int index, TimestampData value) {
            v.setIndexDefined(index);
            millis.setSafe(index, value.getMillisecond());
            nanos.setSafe(index, value.getNanoOfMillisecond());
        }

        @Override
        public void writeNull(int index) {
            v.setNull(index);
            millis.setSafe(index, 0L);
            nanos.setSafe(index, 0);
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getTimestamp(pos, precision));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getTimestamp(pos, precision));
        }
    }

    private static final class ArrayWriter extends ArrowFieldWriter {
        private final ListVector v;
        private final ArrowFieldWriter elements;

        ArrayWriter(ListVector v, ArrowFieldWriter elements) {
            super(v);
            this.v = v;
            this.elements = elements;
        }

        private void set(int index, ArrayData array) {
            int offset = v.startNewValue(index);
            int size = array.size();
            for (int i = 0; i < size; i++) {
                elements.write(offset + i, array, i);
            }
            v.endValue(index, size);
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getArray(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getArray(pos));
        }
    }

    /** MAP into an Arrow map; a null key fails (Arrow map keys cannot be null). */
    private static final class MapWriter extends ArrowFieldWriter {
        private final MapVector v;
        private final StructVector entries;
        private final ArrowFieldWriter keys;
        private final ArrowFieldWriter values;

        MapWriter(MapVector v, StructVector entries, ArrowFieldWriter keys, ArrowFieldWriter values) {
            super(v);
            this.v = v;
            this.entries = entries;
            this.keys = keys;
            this.values = values;
        }

        private void set(int index, MapData map) {
            int offset = v.startNewValue(index);
            int size = map.size();
            ArrayData keyArray = map.keyArray();
            ArrayData valueArray = map.valueArray();
            for (int i = 0; i < size; i++) {
                if (keyArray.isNullAt(i)) {
                    throw new IllegalArgumentException("map entry " + i + " has a null key, which an Arrow map"
                            + " (the sidecar's MAP layout) cannot hold");
                }
                entries.setIndexDefined(offset + i);
                keys.write(offset + i, keyArray, i);
                values.write(offset + i, valueArray, i);
            }
            v.endValue(index, size);
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getMap(pos));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getMap(pos));
        }
    }

    /** Nested ROW into a struct; a null row also nulls its fields, so no child value is left undefined. */
    private static final class RowWriter extends ArrowFieldWriter {
        private final StructVector v;
        private final ArrowFieldWriter[] fields;

        RowWriter(StructVector v, ArrowFieldWriter[] fields) {
            super(v);
            this.v = v;
            this.fields = fields;
        }

        private void set(int index, RowData row) {
            v.setIndexDefined(index);
            for (int i = 0; i < fields.length; i++) {
                fields[i].write(index, row, i);
            }
        }

        @Override
        public void writeNull(int index) {
            v.setNull(index);
            for (ArrowFieldWriter field : fields) {
                field.writeNull(index);
            }
        }

        @Override
        protected void writeValue(int index, RowData row, int pos) {
            set(index, row.getRow(pos, fields.length));
        }

        @Override
        protected void writeValue(int index, ArrayData array, int pos) {
            set(index, array.getRow(pos, fields.length));
        }
    }
}
