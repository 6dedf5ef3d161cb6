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
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.table.data.columnar.vector.ColumnVector;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink {@link ColumnVector}s reading Arrow vectors in place, one per (Flink type, Arrow vector)
 * pair. The vector must have the layout {@link ArrowTypes} gives the type (the sidecar's); a
 * vector of another layout is refused here, once, rather than misread row by row.
 */
public final class ArrowColumnVectors {
    private ArrowColumnVectors() {}

    /** A column vector reading {@code vector} as values of {@code type}. */
    public static ColumnVector of(LogicalType type, FieldVector vector) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return new ArrowBooleanColumnVector(expect(type, vector, BitVector.class));
            case TINYINT:
                return new ArrowTinyIntColumnVector(expect(type, vector, TinyIntVector.class));
            case SMALLINT:
                return new ArrowSmallIntColumnVector(expect(type, vector, SmallIntVector.class));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new ArrowInt32ColumnVector(expect(type, vector, BaseFixedWidthVector.class));
            case BIGINT:
                return new ArrowBigIntColumnVector(expect(type, vector, BigIntVector.class));
            case FLOAT:
                return new ArrowFloatColumnVector(expect(type, vector, Float4Vector.class));
            case DOUBLE:
                return new ArrowDoubleColumnVector(expect(type, vector, Float8Vector.class));
            case DECIMAL:
                return new ArrowDecimalColumnVector(expect(type, vector, DecimalVector.class));
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return new ArrowBytesColumnVector(expect(type, vector, BaseVariableWidthVector.class));
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new ArrowTimestampColumnVector(expect(type, vector, StructVector.class));
            case ARRAY: {
                ListVector list = expect(type, vector, ListVector.class);
                return new ArrowListColumnVector(list, of(type.getChildren().get(0), list.getDataVector()),
                        type.getChildren().get(0));
            }
            case MAP: {
                MapVector map = expect(type, vector, MapVector.class);
                List<FieldVector> entry = ((StructVector) map.getDataVector()).getChildrenFromFields();
                LogicalType keyType = type.getChildren().get(0);
                LogicalType valueType = type.getChildren().get(1);
                return new ArrowMapColumnVector(map, of(keyType, entry.get(0)), keyType, of(valueType, entry.get(1)),
                        valueType);
            }
            case ROW: {
                StructVector struct = expect(type, vector, StructVector.class);
                List<RowType.RowField> fields = ((RowType) type).getFields();
                List<FieldVector> children = struct.getChildrenFromFields();
                if (children.size() != fields.size()) {
                    throw new IllegalArgumentException("Arrow struct column '" + vector.getName() + "' has "
                            + children.size() + " fields but Flink type " + type.asSummaryString() + " has "
                            + fields.size());
                }
                ColumnVector[] columns = new ColumnVector[fields.size()];
                for (int i = 0; i < columns.length; i++) {
                    columns[i] = of(fields.get(i).getType(), children.get(i));
                }
                return new ArrowStructColumnVector(struct, columns);
            }
            default:
                ArrowTypes.leafType(vector.getName(), type); // throws, naming what is supported
                throw new AssertionError(type);
        }
    }

    /**
     * The vector as {@code kind}, after checking its Arrow type is the one the Flink type is held
     * in; for a timestamp, its (millis, nanos) children too.
     */
    private static <V> V expect(LogicalType type, FieldVector vector, Class<V> kind) {
        Field expectedField = ArrowTypes.field(vector.getName(), type);
        ArrowType expected = expectedField.getType();
        ArrowType actual = vector.getField().getType();
        boolean timestamp = type.is(LogicalTypeFamily.TIMESTAMP);
        if (!expected.equals(actual) || !kind.isInstance(vector)
                || timestamp && !expectedField.getChildren().equals(vector.getField().getChildren())) {
            throw new IllegalArgumentException("Arrow column '" + vector.getName() + "' holds " + actual
                    + (timestamp ? " " + vector.getField().getChildren() : "")
                    + " but Flink type " + type.asSummaryString() + " is held as " + expected
                    + (timestamp ? " " + expectedField.getChildren() : "")
                    + " (the sidecar's layout, see ArrowTypes); the batch's producer must write that layout");
        }
        return kind.cast(vector);
    }
}
