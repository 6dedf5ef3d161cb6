package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.builtin;
import static org.flinkaccelerator.planner.substrait.FunctionEntry.flinkUdf;

import io.substrait.proto.Expression;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * + - * / MOD, unary minus and ABS. Operands are first cast (exactly) to the type Flink computes
 * in, so DataFusion computes in the same type: integer arithmetic then wraps on overflow in both,
 * as Java does.
 */
final class ArithmeticFunctions {
    private static final int MAX_DECIMAL_PRECISION = 38;

    private ArithmeticFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                builtin("a + b", List.of("PLUS"), "integers wrap on overflow (as Java); DECIMAL while the"
                        + " exact sum fits 38 digits; FLOAT/DOUBLE IEEE; TIMESTAMP/TIMESTAMP_LTZ + a day-time INTERVAL"
                        + " literal: flink_timestamp_plus_millis (Flink's epoch-millisecond shift)",
                        (call, c) -> binary(call, c, "add", false)),
                builtin("a - b", List.of("MINUS"), "as +", (call, c) -> binary(call, c, "subtract", false)),
                builtin("a * b", List.of("TIMES"), "as +; DECIMAL while p1 + p2 + 1 <= 38 (Flink's exact product type)",
                        (call, c) -> binary(call, c, "multiply", true)),
                flinkUdf("a / b", List.of("DIVIDE"), "integers: flink_divide_<type>, Java division (truncates,"
                        + " MIN / -1 = MIN, / 0 fails); FLOAT/DOUBLE IEEE; DECIMAL not reproduced (Flink derives"
                        + " its own scale and rounds)", ArithmeticFunctions::divide),
                builtin("MOD(a, b), a % b", List.of("MOD"), "integers only: sign of the dividend, MIN % -1 = 0,"
                        + " % 0 fails (as Java)", ArithmeticFunctions::mod),
                builtin("-a", List.of("MINUS_PREFIX"), "integers wrap (-MIN = MIN, as Java)",
                        ArithmeticFunctions::negate),
                builtin("+a", List.of("PLUS_PREFIX"), "identity", (call, c) -> c.convert(call.getOperands().get(0))),
                flinkUdf("ABS(a)", List.of("ABS"), "integers: flink_abs_<type> (ABS(MIN) = MIN, as Java);"
                        + " FLOAT/DOUBLE/DECIMAL: DataFusion's abs", ArithmeticFunctions::abs));
    }

    private static Expression binary(RexCall call, ExpressionConverter c, String name, boolean product) {
        LogicalType result = ExpressionConverter.type(call);
        if (TemporalFunctions.isTimestamp(result) && !product) {
            return TemporalFunctions.plusInterval(call, c, name.equals("subtract"));
        }
        if (isInteger(result) || isFloating(result)) {
            return c.call(Urns.ARITHMETIC, name, result, List.of(c.operand(call, 0, result), c.operand(call, 1, result)));
        }
        if (result.getTypeRoot() == LogicalTypeRoot.DECIMAL) {
            DecimalType a = asDecimal(ExpressionConverter.type(call.getOperands().get(0)));
            DecimalType b = asDecimal(ExpressionConverter.type(call.getOperands().get(1)));
            int scale = product ? a.getScale() + b.getScale() : Math.max(a.getScale(), b.getScale());
            int precision = product ? a.getPrecision() + b.getPrecision() + 1
                    : Math.max(a.getPrecision() - a.getScale(), b.getPrecision() - b.getScale()) + scale + 1;
            DecimalType flink = (DecimalType) result;
            if (precision > MAX_DECIMAL_PRECISION || flink.getPrecision() != precision || flink.getScale() != scale) {
                throw new NotReproducible("DECIMAL " + call.getOperator().getName() + " with result "
                        + result.asSummaryString() + ": Flink rounds results beyond 38 digits");
            }
            // DataFusion derives the same DECIMAL result type from the same operand types.
            return c.call(Urns.ARITHMETIC, name, result, List.of(c.operand(call, 0, a), c.operand(call, 1, b)));
        }
        throw new NotReproducible(call.getOperator().getName() + " on " + result.asSummaryString() + " is not supported yet");
    }

    private static Expression divide(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        if (isInteger(result)) {
            return c.call(Urns.FLINK, "flink_divide_" + suffix(result), result,
                    List.of(c.operand(call, 0, result), c.operand(call, 1, result)));
        }
        if (isFloating(result)) {
            return c.call(Urns.ARITHMETIC, "divide", result, List.of(c.operand(call, 0, result), c.operand(call, 1, result)));
        }
        throw new NotReproducible("division with result " + result.asSummaryString()
                + ": Flink derives its own DECIMAL scale and rounds");
    }

    private static Expression mod(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        LogicalType a = ExpressionConverter.type(call.getOperands().get(0));
        LogicalType b = ExpressionConverter.type(call.getOperands().get(1));
        if (!isInteger(result) || !isInteger(a) || !isInteger(b)) {
            throw new NotReproducible("MOD on " + a.asSummaryString() + " and " + b.asSummaryString() + " is not supported yet");
        }
        LogicalType common = CastRules.widerInteger(a, b).copy(result.isNullable());
        Expression remainder = c.call(Urns.ARITHMETIC, "modulus", common,
                List.of(c.operand(call, 0, common), c.operand(call, 1, common)));
        // |remainder| < |divisor|, so narrowing to Flink's result type (the divisor's) is exact.
        return SubstraitTypes.sameRepresentation(common, result) ? remainder : c.cast(remainder, result);
    }

    private static Expression negate(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        if (!isInteger(result) && !isFloating(result) && result.getTypeRoot() != LogicalTypeRoot.DECIMAL) {
            throw new NotReproducible("unary minus on " + result.asSummaryString() + " is not supported yet");
        }
        return c.call(Urns.ARITHMETIC, "negate", result, List.of(c.operand(call, 0, result)));
    }

    private static Expression abs(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        if (isInteger(result)) {
            return c.call(Urns.FLINK, "flink_abs_" + suffix(result), result, List.of(c.operand(call, 0, result)));
        }
        if (isFloating(result) || result.getTypeRoot() == LogicalTypeRoot.DECIMAL) {
            return c.call(Urns.ARITHMETIC, "abs", result, List.of(c.operand(call, 0, result)));
        }
        throw new NotReproducible("ABS on " + result.asSummaryString() + " is not supported yet");
    }

    /** An integer operand of DECIMAL arithmetic is the DECIMAL holding all its values, as in Flink. */
    private static DecimalType asDecimal(LogicalType type) {
        if (isInteger(type)) {
            return new DecimalType(type.isNullable(), CastRules.integerDigits(type), 0);
        }
        if (type.getTypeRoot() == LogicalTypeRoot.DECIMAL) {
            return (DecimalType) type;
        }
        throw new NotReproducible("DECIMAL arithmetic with a " + type.asSummaryString() + " operand is not supported yet");
    }

    static boolean isInteger(LogicalType type) {
        return CastRules.isInteger(type);
    }

    private static boolean isFloating(LogicalType type) {
        return SubstraitTypes.isRoot(type, LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE);
    }

    /** The type part of a per-type UDF name: i8, i16, i32, i64. */
    static String suffix(LogicalType integer) {
        switch (integer.getTypeRoot()) {
            case TINYINT: return "i8";
            case SMALLINT: return "i16";
            case INTEGER: return "i32";
            default: return "i64";
        }
    }
}
