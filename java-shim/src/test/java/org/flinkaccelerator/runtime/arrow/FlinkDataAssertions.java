package org.flinkaccelerator.runtime.arrow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Equality of Flink internal data read through Flink's own accessors: fields with
 * {@code RowData.createFieldGetter}, elements with {@code ArrayData.createElementGetter}, values
 * with their {@code equals}. A nested value is compared element by element and also in Flink's
 * binary format ({@code BinaryRowData.equals}), since Flink's columnar structures do not
 * implement equals.
 */
public final class FlinkDataAssertions {
    private FlinkDataAssertions() {}

    public static void assertRowEquals(RowType type, RowData expected, RowData actual, String where) {
        assertEquals(expected.getArity(), actual.getArity(), where + ": arity");
        assertEquals(expected.getRowKind(), actual.getRowKind(), where + ": row kind");
        for (int i = 0; i < type.getFieldCount(); i++) {
            LogicalType fieldType = type.getTypeAt(i);
            String field = where + "." + type.getFieldNames().get(i);
            assertEquals(expected.isNullAt(i), actual.isNullAt(i), field + ": null");
            RowData.FieldGetter getter = RowData.createFieldGetter(fieldType, i);
            Object e = getter.getFieldOrNull(expected);
            Object a = getter.getFieldOrNull(actual);
            assertValueEquals(fieldType, e, a, field);
            if (e != null && fieldType.getChildren().size() > 0) {
                assertEquals(binary(fieldType, e), binary(fieldType, a), field + ": in Flink's binary format");
            }
        }
    }

    static void assertValueEquals(LogicalType type, Object expected, Object actual, String where) {
        if (expected == null) {
            assertNull(actual, where);
            return;
        }
        assertNotNull(actual, where);
        switch (type.getTypeRoot()) {
            case ARRAY:
                assertArrayDataEquals(type.getChildren().get(0), (ArrayData) expected, (ArrayData) actual, where);
                break;
            case MAP: {
                MapData e = (MapData) expected;
                MapData a = (MapData) actual;
                assertEquals(e.size(), a.size(), where + ": map size");
                assertArrayDataEquals(type.getChildren().get(0), e.keyArray(), a.keyArray(), where + ".keys");
                assertArrayDataEquals(type.getChildren().get(1), e.valueArray(), a.valueArray(), where + ".values");
                break;
            }
            case ROW:
                assertRowEquals((RowType) type, (RowData) expected, (RowData) actual, where);
                break;
            case BINARY:
            case VARBINARY:
                assertArrayEquals((byte[]) expected, (byte[]) actual, where);
                break;
            default:
                assertEquals(expected, actual, where);
        }
    }

    private static void assertArrayDataEquals(LogicalType elementType, ArrayData expected, ArrayData actual,
            String where) {
        assertEquals(expected.size(), actual.size(), where + ": size");
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        for (int j = 0; j < expected.size(); j++) {
            assertEquals(expected.isNullAt(j), actual.isNullAt(j), where + "[" + j + "]: null");
            assertValueEquals(elementType, getter.getElementOrNull(expected, j), getter.getElementOrNull(actual, j),
                    where + "[" + j + "]");
        }
    }

    /** The value alone in a row, in Flink's binary row format: BinaryRowData equals compares the bytes. */
    private static BinaryRowData binary(LogicalType type, Object internal) {
        return new RowDataSerializer(RowType.of(type)).toBinaryRow(GenericRowData.of(internal)).copy();
    }
}
