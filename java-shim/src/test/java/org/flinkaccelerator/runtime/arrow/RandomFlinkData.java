package org.flinkaccelerator.runtime.arrow;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Random Flink types (nested to a given depth, random nullability) and random internal values of
 * them, as Flink itself would hold them: a value of a NOT NULL type is never null, TIMESTAMP/TIME
 * values carry no digits beyond their precision, DECIMAL values fit their precision.
 */
final class RandomFlinkData {
    /** Code points from several planes: ASCII, Latin-1, Greek, CJK, and emoji outside the BMP. */
    private static final int[][] CODE_POINT_RANGES = {{0x20, 0x7e}, {0xa0, 0xff}, {0x391, 0x3c9},
            {0x4e00, 0x4e80}, {0x1f600, 0x1f64f}};
    private static final long MILLIS_PER_DAY = 86_400_000L;
    /** Epoch milliseconds of 0000-01-01T00:00 and 10000-01-01T00:00 (719_528 and 2_932_897 days from 1970). */
    private static final long YEAR_0000 = -719_528 * MILLIS_PER_DAY;
    private static final long YEAR_10000 = 2_932_897 * MILLIS_PER_DAY;

    private final Random random;

    RandomFlinkData(long seed) {
        this.random = new Random(seed);
    }

    Random random() {
        return random;
    }

    RowType rowType(int maxFields, int depth) {
        int n = 1 + random.nextInt(maxFields);
        List<RowType.RowField> fields = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            fields.add(new RowType.RowField("f" + i, type(depth)));
        }
        return new RowType(random.nextInt(4) != 0, fields);
    }

    LogicalType type(int depth) {
        if (depth > 0 && random.nextInt(3) == 0) {
            switch (random.nextInt(3)) {
                case 0:
                    return new ArrayType(random.nextBoolean(), type(depth - 1));
                case 1:
                    return new MapType(random.nextBoolean(), mapKeyType(), type(depth - 1));
                default:
                    return rowType(4, depth - 1);
            }
        }
        return leafType().copy(random.nextInt(4) != 0);
    }

    private LogicalType leafType() {
        switch (random.nextInt(17)) {
            case 0: return new BooleanType();
            case 1: return new TinyIntType();
            case 2: return new SmallIntType();
            case 3: return new IntType();
            case 4: return new BigIntType();
            case 5: return new FloatType();
            case 6: return new DoubleType();
            case 7: {
                int precision = 1 + random.nextInt(38);
                return new DecimalType(precision, random.nextInt(precision + 1));
            }
            case 8: return new CharType(1 + random.nextInt(10));
            case 9: return new VarCharType(VarCharType.MAX_LENGTH);
            case 10: return new BinaryType(1 + random.nextInt(10));
            case 11: return new VarBinaryType(VarBinaryType.MAX_LENGTH);
            case 12: return new DateType();
            case 13: return new TimeType(random.nextInt(4));
            case 14: return new TimestampType(random.nextInt(10));
            case 15: return new LocalZonedTimestampType(random.nextInt(10));
            default: return new DecimalType(38, random.nextInt(39));
        }
    }

    /** Key types whose external (Java) objects have value equality, so maps compare as maps. */
    private LogicalType mapKeyType() {
        switch (random.nextInt(6)) {
            case 0: return new IntType(false);
            case 1: return new BigIntType();
            case 2: return new VarCharType(VarCharType.MAX_LENGTH);
            case 3: return new DateType();
            case 4: return new TimestampType(random.nextInt(10));
            default: return new DecimalType(1 + random.nextInt(38), 0);
        }
    }

    GenericRowData row(RowType type) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < type.getFieldCount(); i++) {
            row.setField(i, value(type.getTypeAt(i)));
        }
        return row;
    }

    Object value(LogicalType type) {
        if (type.isNullable() && random.nextInt(8) == 0) {
            return null;
        }
        return nonNullValue(type);
    }

    private Object nonNullValue(LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN: return random.nextBoolean();
            case TINYINT: return (byte) random.nextInt();
            case SMALLINT: return (short) random.nextInt();
            case INTEGER: return random.nextInt();
            case BIGINT: return random.nextLong();
            case FLOAT: return random.nextInt(5) == 0 ? special(new float[] {Float.NaN, -0.0f,
                    Float.POSITIVE_INFINITY, Float.MIN_VALUE, Float.MAX_VALUE}) : Float.intBitsToFloat(random.nextInt());
            case DOUBLE: return random.nextInt(5) == 0 ? special(new double[] {Double.NaN, -0.0,
                    Double.NEGATIVE_INFINITY, Double.MIN_VALUE, Double.MAX_VALUE})
                    : Double.longBitsToDouble(random.nextLong());
            case DECIMAL: return decimal((DecimalType) type);
            case CHAR: return StringData.fromString(string(((CharType) type).getLength()));
            case VARCHAR: return StringData.fromString(string(12));
            case BINARY: return bytes(((BinaryType) type).getLength());
            case VARBINARY: return bytes(12);
            case DATE: return -719_162 + random.nextInt(2_932_897 + 719_162); // 0001-01-01 .. 9999-12-31
            case TIME_WITHOUT_TIME_ZONE: return random.nextInt(86_400_000);
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: return timestamp(LogicalTypeChecks.getPrecision(type));
            case ARRAY: {
                Object[] elements = new Object[random.nextInt(5)];
                for (int i = 0; i < elements.length; i++) {
                    elements[i] = value(((ArrayType) type).getElementType());
                }
                return new GenericArrayData(elements);
            }
            case MAP: {
                MapType map = (MapType) type;
                Map<Object, Object> entries = new LinkedHashMap<>();
                int n = random.nextInt(4);
                for (int i = 0; i < n; i++) {
                    entries.put(nonNullValue(map.getKeyType()), value(map.getValueType()));
                }
                return new GenericMapData(entries);
            }
            case ROW: return row((RowType) type);
            default: throw new IllegalArgumentException("no random values of " + type);
        }
    }

    private float special(float[] values) {
        return values[random.nextInt(values.length)];
    }

    private double special(double[] values) {
        return values[random.nextInt(values.length)];
    }

    private DecimalData decimal(DecimalType type) {
        BigInteger bound = BigInteger.TEN.pow(type.getPrecision());
        BigInteger unscaled = new BigInteger(bound.bitLength() + 8, random).mod(bound);
        if (random.nextInt(10) == 0) {
            unscaled = bound.subtract(BigInteger.ONE); // the largest the precision holds
        }
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return Objects.requireNonNull(DecimalData.fromBigDecimal(new BigDecimal(unscaled, type.getScale()),
                type.getPrecision(), type.getScale()));
    }

    private String string(int maxLength) {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) {
            int[] range = CODE_POINT_RANGES[random.nextInt(CODE_POINT_RANGES.length)];
            s.appendCodePoint(range[0] + random.nextInt(range[1] - range[0] + 1));
        }
        return s.toString();
    }

    private byte[] bytes(int maxLength) {
        byte[] bytes = new byte[random.nextInt(maxLength + 1)];
        random.nextBytes(bytes);
        return bytes;
    }

    /**
     * Any TimestampData cut to {@code precision} fractional digits: mostly the years 0000-9999, else
     * any epoch millisecond (Flink's arithmetic can leave that range), often the day before the epoch.
     */
    private TimestampData timestamp(int precision) {
        long millis;
        switch (random.nextInt(10)) {
            case 0: millis = random.nextLong(); break;
            case 1: millis = -1 - random.nextLong(MILLIS_PER_DAY); break;
            default: millis = random.nextLong(YEAR_0000, YEAR_10000);
        }
        int unit = (int) Math.pow(10, 9 - precision);
        int nanos = random.nextInt(1_000_000);
        if (unit >= 1_000_000) {
            millis = Math.floorDiv(millis, unit / 1_000_000) * (unit / 1_000_000);
            nanos = 0;
        } else {
            nanos = nanos / unit * unit;
        }
        return TimestampData.fromEpochMillis(millis, nanos);
    }
}
