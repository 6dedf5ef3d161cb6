package org.flinkaccelerator.runtime.arrow;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Arrow layout of each Flink type: the one the Python sidecar holds values in
 * (accelerator/formats/types.py {@code to_arrow}), so a batch either side writes is read by the
 * other without a cast. docs/architecture.md has the table.
 */
public final class ArrowTypes {
    /** Child of a TIMESTAMP / TIMESTAMP_LTZ struct: epoch milliseconds, floored ({@code TimestampData.getMillisecond()}). */
    public static final String MILLIS = "millis";
    /** Child of a TIMESTAMP / TIMESTAMP_LTZ struct: nanoseconds within that millisecond, 0..999_999. */
    public static final String NANOS = "nanos";
    /** Child field name of an ARRAY column's list (pyarrow's default, which the sidecar uses). */
    public static final String ELEMENT = "element";

    private ArrowTypes() {}

    /** The Arrow schema of a row type: one field per Flink field, in order, with its name. */
    public static Schema schema(RowType rowType) {
        List<Field> fields = new ArrayList<>();
        for (RowType.RowField f : rowType.getFields()) {
            fields.add(field(f.getName(), f.getType()));
        }
        return new Schema(fields);
    }

    /** The Arrow field holding values of {@code type}; nullable exactly when the Flink type is. */
    public static Field field(String name, LogicalType type) {
        return field(name, type, type.isNullable());
    }

    private static Field field(String name, LogicalType type, boolean nullable) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return new Field(name, new FieldType(nullable, ArrowType.List.INSTANCE, null),
                        List.of(field(ELEMENT, type.getChildren().get(0))));
            case MAP: {
                // Arrow map keys cannot be null, so the key field is NOT NULL whatever the Flink key type says.
                Field key = field(MapVector.KEY_NAME, type.getChildren().get(0), false);
                Field value = field(MapVector.VALUE_NAME, type.getChildren().get(1));
                Field entries = new Field(MapVector.DATA_VECTOR_NAME,
                        FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(key, value));
                return new Field(name, new FieldType(nullable, new ArrowType.Map(false), null), List.of(entries));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), timestampParts());
            case ROW: {
                List<Field> children = new ArrayList<>();
                for (RowType.RowField f : ((RowType) type).getFields()) {
                    children.add(field(f.getName(), f.getType()));
                }
                return new Field(name, new FieldType(nullable, ArrowType.Struct.INSTANCE, null), children);
            }
            default:
                return new Field(name, new FieldType(nullable, leafType(name, type), null), List.of());
        }
    }

    /**
     * The children of every TIMESTAMP(p) and TIMESTAMP_LTZ(p) column (LTZ: the instant in UTC):
     * Flink's own TimestampData pair, so every value Flink holds, at any precision, is exact.
     */
    static List<Field> timestampParts() {
        return List.of(new Field(MILLIS, FieldType.notNullable(new ArrowType.Int(64, true)), List.of()),
                new Field(NANOS, FieldType.notNullable(new ArrowType.Int(32, true)), List.of()));
    }

    /** The Arrow type of a type without children; fails, naming the field, for any other type. */
    static ArrowType leafType(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return ArrowType.Bool.INSTANCE;
            case TINYINT:
                return new ArrowType.Int(8, true);
            case SMALLINT:
                return new ArrowType.Int(16, true);
            case INTEGER:
                return new ArrowType.Int(32, true);
            case BIGINT:
                return new ArrowType.Int(64, true);
            case FLOAT:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE);
            case DOUBLE:
                return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                return new ArrowType.Decimal(decimal.getPrecision(), decimal.getScale(), 128);
            }
            case CHAR:
            case VARCHAR:
                return ArrowType.Utf8.INSTANCE;
            case BINARY:
            case VARBINARY:
                return ArrowType.Binary.INSTANCE;
            case DATE:
                return new ArrowType.Date(DateUnit.DAY);
            case TIME_WITHOUT_TIME_ZONE:
                // Flink holds TIME as milliseconds of the day, whatever the precision.
                return new ArrowType.Time(TimeUnit.MILLISECOND, 32);
            default:
                throw new IllegalArgumentException("Field '" + name + "' has type " + type.asSummaryString()
                        + ", which has no Arrow layout shared with the sidecar; supported are BOOLEAN, the integer"
                        + " and floating point types, DECIMAL, CHAR/VARCHAR, BINARY/VARBINARY, DATE, TIME,"
                        + " TIMESTAMP, TIMESTAMP_LTZ, ARRAY, MAP and ROW");
        }
    }
}
