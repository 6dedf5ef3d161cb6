package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.substrait.proto.Expression;
import io.substrait.proto.Plan;
import io.substrait.proto.Type;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.util.TimestampString;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.planner.functions.sql.FlinkSqlOperatorTable;
import org.junit.jupiter.api.Test;

/**
 * How literals become Substrait, and how a conversion that goes wrong surfaces: always as a reason
 * to stay stock, never as a planning failure.
 */
class ExpressionConverterTest {
    private final RexBuilder rex = new RexBuilder(
            new FlinkTypeFactory(getClass().getClassLoader(), FlinkTypeSystem.INSTANCE));

    @Test
    void aRegistryEntryThatFailsUnexpectedlyKeepsTheCallStockWithTheBugAsItsReason() {
        FunctionRegistry broken = FunctionRegistry.of(List.of(FunctionEntry.builtin("a + b", List.of("PLUS"), "",
                (call, c) -> {
                    throw new AssertionError("cannot convert CHAR literal to class java.lang.Integer");
                })));
        ExpressionConverter converter = new ExpressionConverter(broken, new FunctionAnchors());
        RexNode plus = rex.makeCall(SqlStdOperatorTable.PLUS, rex.makeExactLiteral(BigDecimal.ONE),
                rex.makeExactLiteral(BigDecimal.TEN));

        NotReproducible e = assertThrows(NotReproducible.class, () -> converter.convert(plus));
        assertTrue(e.getMessage().startsWith("a + b: converting +(1, 10) failed"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot convert CHAR literal"), e.getMessage());
    }

    @Test
    void dateFormatOfATimestampWithALiteralPatternIsFlinkDateFormatOfThePatternsPrinters() {
        FunctionAnchors anchors = new FunctionAnchors();
        ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.standard(), anchors);
        Expression call = converter.convert(dateFormat(SqlTypeName.TIMESTAMP, rex.makeLiteral("HH")));
        assertEquals("[{\"value\":\"HOUR_OF_DAY\",\"width\":2,\"sign\":\"NOT_NEGATIVE\"}]",
                call.getScalarFunction().getArguments(1).getValue().getLiteral().getString());
        Plan.Builder plan = Plan.newBuilder();
        anchors.declareIn(plan);
        assertEquals(List.of("flink_date_format"), plan.getExtensionsList().stream()
                .map(e -> e.getExtensionFunction().getName()).toList());
    }

    @Test
    void dateFormatOfATimestampLtzOrAStringOrWithAComputedPatternStaysStockSayingWhy() {
        ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.standard(), new FunctionAnchors());
        String types = " (Flink formats a TIMESTAMP_LTZ in the session time zone and parses a string with"
                + " SimpleDateFormat first)";
        assertEquals("DATE_FORMAT of TIMESTAMP_LTZ(3): only a TIMESTAMP is reproduced yet" + types, assertThrows(
                NotReproducible.class, () -> converter.convert(dateFormat(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE,
                        rex.makeLiteral("HH")))).getMessage());
        assertEquals("DATE_FORMAT of STRING: only a TIMESTAMP is reproduced yet" + types, assertThrows(
                NotReproducible.class, () -> converter.convert(dateFormat(SqlTypeName.VARCHAR,
                        rex.makeLiteral("HH")))).getMessage());
        RelDataType string = rex.getTypeFactory().createSqlType(SqlTypeName.VARCHAR, Integer.MAX_VALUE);
        assertEquals("DATE_FORMAT with a pattern that is not a literal string is not reproduced", assertThrows(
                NotReproducible.class, () -> converter.convert(dateFormat(SqlTypeName.TIMESTAMP,
                        rex.makeInputRef(string, 1)))).getMessage());
    }

    /** DATE_FORMAT(input column 0 of {@code input}, {@code pattern}). */
    private RexNode dateFormat(SqlTypeName input, RexNode pattern) {
        RelDataType type = input == SqlTypeName.VARCHAR
                ? rex.getTypeFactory().createSqlType(input, Integer.MAX_VALUE)
                : rex.getTypeFactory().createSqlType(input, 3);
        return rex.makeCall(FlinkSqlOperatorTable.DATE_FORMAT, rex.makeInputRef(
                rex.getTypeFactory().createTypeWithNullability(type, true), 0), pattern);
    }

    @Test
    void aTimestampLiteralIsFlinkTimestampOfItsEpochMillisFlooredAndNanosOfTheMilli() {
        FunctionAnchors anchors = new FunctionAnchors();
        ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.of(List.of()), anchors);
        // 0000-01-01 is 719,528 days before 1970-01-01; 9999-12-31T23:59:59.999 is 253,402,300,799,999 ms after.
        assertTimestamp(converter.convert(rex.makeTimestampLiteral(
                new TimestampString("0000-01-01 00:00:00.000000001"), 9)), -719_528L * 86_400_000L, 1);
        assertTimestamp(converter.convert(rex.makeTimestampLiteral(
                new TimestampString("1969-12-31 23:59:59.999999999"), 9)), -1, 999_999);
        assertTimestamp(converter.convert(rex.makeTimestampWithLocalTimeZoneLiteral(
                new TimestampString("9999-12-31 23:59:59.999"), 3)), 253_402_300_799_999L, 0);
        Plan.Builder plan = Plan.newBuilder();
        anchors.declareIn(plan);
        assertEquals(List.of("flink_timestamp"), plan.getExtensionsList().stream()
                .map(e -> e.getExtensionFunction().getName()).toList());
    }

    @Test
    void aNullTimestampLiteralIsFlinkTimestampOfNullParts() {
        ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.of(List.of()), new FunctionAnchors());
        RelDataType type = rex.getTypeFactory().createTypeWithNullability(
                rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP_WITH_LOCAL_TIME_ZONE, 3), true);
        Expression.ScalarFunction function = converter.convert(rex.makeNullLiteral(type)).getScalarFunction();
        assertEquals(List.of(Expression.Literal.LiteralTypeCase.NULL, Expression.Literal.LiteralTypeCase.NULL),
                function.getArgumentsList().stream().map(a -> a.getValue().getLiteral().getLiteralTypeCase()).toList());
        assertEquals(List.of(Type.KindCase.I64, Type.KindCase.I32), function.getArgumentsList().stream()
                .map(a -> a.getValue().getLiteral().getNull().getKindCase()).toList());
        assertEquals(Type.Nullability.NULLABILITY_NULLABLE, function.getOutputType().getStruct().getNullability());
    }

    @Test
    void aCastThatOnlyRaisesATimestampsPrecisionIsTheValueUnchanged() {
        ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.standard(), new FunctionAnchors());
        RexNode column = rex.makeInputRef(rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 3), 0);
        RexNode raised = rex.makeCast(rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 9), column);
        assertEquals(converter.convert(column), converter.convert(raised));
        RexNode lowered = rex.makeCast(rex.getTypeFactory().createSqlType(SqlTypeName.TIMESTAMP, 0), column);
        assertThrows(NotReproducible.class, () -> converter.convert(lowered));
    }

    /** {@code flink_timestamp(millis i64, nanos i32)} with a NOT NULL timestamp struct as its type. */
    private static void assertTimestamp(Expression expression, long millis, int nanos) {
        Expression.ScalarFunction function = expression.getScalarFunction();
        assertEquals(List.of(millis, (long) nanos), List.of(
                function.getArguments(0).getValue().getLiteral().getI64(),
                (long) function.getArguments(1).getValue().getLiteral().getI32()), expression.toString());
        assertEquals(Type.newBuilder().setStruct(Type.Struct.newBuilder()
                .setNullability(Type.Nullability.NULLABILITY_REQUIRED)
                .addTypes(Type.newBuilder().setI64(Type.I64.newBuilder()
                        .setNullability(Type.Nullability.NULLABILITY_REQUIRED)))
                .addTypes(Type.newBuilder().setI32(Type.I32.newBuilder()
                        .setNullability(Type.Nullability.NULLABILITY_REQUIRED)))).build(), function.getOutputType());
    }
}
