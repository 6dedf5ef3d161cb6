package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.substrait.proto.Type;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.Test;

class SubstraitTypesTest {
    private static RowType row(String first, boolean firstNullable, String second) {
        return RowType.of(new org.apache.flink.table.types.logical.LogicalType[] {
                new BigIntType(firstNullable), new IntType(false)}, new String[] {first, second});
    }

    @Test
    void aRowWithTheTimestampLayoutStaysStock() {
        NotReproducible e = assertThrows(NotReproducible.class, () -> SubstraitTypes.of(row("millis", false, "nanos")));
        assertTrue(e.getMessage().contains("timestamp layout"), e.getMessage());
    }

    @Test
    void otherTwoFieldRowsAreStructs() {
        for (RowType ok : new RowType[] {row("millis", true, "nanos"), row("ms", false, "nanos"), row("millis", false, "n")}) {
            Type t = SubstraitTypes.of(ok);
            assertEquals(2, t.getStruct().getTypesCount(), ok.asSummaryString());
        }
    }

    @Test
    void aTimestampIsTheMillisNanosStruct() {
        Type t = SubstraitTypes.of(new TimestampType(true, 9));
        assertTrue(t.getStruct().getTypes(0).hasI64());
        assertTrue(t.getStruct().getTypes(1).hasI32());
        assertEquals(Type.Nullability.NULLABILITY_NULLABLE, t.getStruct().getNullability());
    }
}
