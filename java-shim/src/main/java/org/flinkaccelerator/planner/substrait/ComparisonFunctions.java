package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.builtin;

import io.substrait.proto.Expression;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * = <> < <= > >=. Both sides are cast exactly to one common type first. FLOAT/DOUBLE are left to
 * Flink: its generated code compares Java primitives (NaN equals nothing), Arrow orders NaN.
 */
final class ComparisonFunctions {
    private static final String SEMANTICS = "integers, DECIMAL, strings (UTF-8 byte order, as Flink),"
            + " BOOLEAN, BINARY, DATE, TIME, TIMESTAMP; not FLOAT/DOUBLE (NaN ordering differs)";

    private ComparisonFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                builtin("a = b", List.of("EQUALS"), SEMANTICS, (call, c) -> compare(call, c, "equal")),
                builtin("a <> b", List.of("NOT_EQUALS"), SEMANTICS, (call, c) -> compare(call, c, "not_equal")),
                builtin("a < b", List.of("LESS_THAN"), SEMANTICS, (call, c) -> compare(call, c, "lt")),
                builtin("a <= b", List.of("LESS_THAN_OR_EQUAL"), SEMANTICS, (call, c) -> compare(call, c, "lte")),
                builtin("a > b", List.of("GREATER_THAN"), SEMANTICS, (call, c) -> compare(call, c, "gt")),
                builtin("a >= b", List.of("GREATER_THAN_OR_EQUAL"), SEMANTICS, (call, c) -> compare(call, c, "gte")));
    }

    private static Expression compare(RexCall call, ExpressionConverter c, String name) {
        LogicalType a = ExpressionConverter.type(call.getOperands().get(0));
        LogicalType b = ExpressionConverter.type(call.getOperands().get(1));
        LogicalType result = ExpressionConverter.type(call);
        LogicalTypeRoot family = family(a);
        if (family != null && family == family(b)) {
            return c.call(Urns.COMPARISON, name, result,
                    List.of(c.convert(call.getOperands().get(0)), c.convert(call.getOperands().get(1))));
        }
        LogicalType common = commonNumericType(a, b);
        return c.call(Urns.COMPARISON, name, result,
                List.of(c.operand(call, 0, common.copy(a.isNullable())), c.operand(call, 1, common.copy(b.isNullable()))));
    }

    private static LogicalType commonNumericType(LogicalType a, LogicalType b) {
        if (CastRules.isInteger(a) && CastRules.isInteger(b)) {
            return CastRules.widerInteger(a, b);
        }
        if (isExactNumeric(a) && isExactNumeric(b)) {
            int scale = Math.max(scale(a), scale(b));
            int integerDigits = Math.max(precision(a) - scale(a), precision(b) - scale(b));
            if (integerDigits + scale > 38) {
                throw new NotReproducible("comparing " + a.asSummaryString() + " with " + b.asSummaryString()
                        + " needs more than 38 digits");
            }
            return new DecimalType(integerDigits + scale, scale);
        }
        throw new NotReproducible("comparing " + a.asSummaryString() + " with " + b.asSummaryString()
                + " is not reproduced exactly (FLOAT/DOUBLE order NaN differently; other mixes not yet supported)");
    }

    /** The types compared on their common Arrow representation without any cast. */
    private static LogicalTypeRoot family(LogicalType type) {
        switch (type.getTypeRoot()) {
            case CHAR: case VARCHAR: return LogicalTypeRoot.VARCHAR;
            case BINARY: case VARBINARY: return LogicalTypeRoot.VARBINARY;
            case BOOLEAN: case DATE: case TIME_WITHOUT_TIME_ZONE: case TIMESTAMP_WITHOUT_TIME_ZONE: case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return type.getTypeRoot();
            default: return null;
        }
    }

    private static boolean isExactNumeric(LogicalType type) {
        return CastRules.isInteger(type) || type.getTypeRoot() == LogicalTypeRoot.DECIMAL;
    }

    private static int precision(LogicalType type) {
        return CastRules.isInteger(type) ? CastRules.integerDigits(type) : ((DecimalType) type).getPrecision();
    }

    private static int scale(LogicalType type) {
        return CastRules.isInteger(type) ? 0 : ((DecimalType) type).getScale();
    }
}
