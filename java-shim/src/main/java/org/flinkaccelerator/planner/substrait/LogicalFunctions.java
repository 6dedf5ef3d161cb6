package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.builtin;

import io.substrait.proto.Expression;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** AND, OR, NOT, IS [NOT] NULL, IS [NOT] TRUE/FALSE, CASE, COALESCE and CAST: SQL's three-valued logic on both sides. */
final class LogicalFunctions {
    private LogicalFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                builtin("a AND b", List.of("AND"), "three-valued logic", (call, c) -> fold(call, c, "and")),
                builtin("a OR b", List.of("OR"), "three-valued logic", (call, c) -> fold(call, c, "or")),
                builtin("NOT a", List.of("NOT"), "three-valued logic", (call, c) -> unary(call, c, "not")),
                builtin("a IS NULL", List.of("IS_NULL"), "", (call, c) -> unary(call, c, "is_null")),
                builtin("a IS NOT NULL", List.of("IS_NOT_NULL"), "", (call, c) -> unary(call, c, "is_not_null")),
                builtin("a IS [NOT] TRUE, a IS [NOT] FALSE", List.of("IS_TRUE", "IS_NOT_TRUE", "IS_FALSE",
                        "IS_NOT_FALSE"), "never NULL: a NULL is neither TRUE nor FALSE (COUNT(*) FILTER (WHERE ...) reads"
                        + " its condition so)", (call, c) -> unary(call, c, call.getKind().name().toLowerCase(Locale.ROOT))),
                builtin("CASE WHEN ... THEN ... ELSE ... END", List.of("CASE"), "first true condition wins;"
                        + " every branch cast exactly to the CASE's type", LogicalFunctions::caseWhen),
                builtin("COALESCE(a, b, ...)", List.of("COALESCE"), "every argument cast exactly to the result type",
                        LogicalFunctions::coalesce),
                builtin("CAST(a AS t)", List.of("CAST"), "integer widening; integer to DECIMAL (NULL on overflow,"
                        + " as Flink), FLOAT, DOUBLE or a long-enough VARCHAR; DECIMAL to a scale as large (NULL on"
                        + " overflow); FLOAT to DOUBLE; CHAR/VARCHAR to a VARCHAR as long; timestamp precision increase; ARRAY to ARRAY and MAP to MAP"
                        + " where each element (key, value) CAST is one of these and never NULL on overflow",
                        (call, c) -> c.operand(call, 0, ExpressionConverter.type(call))),
                builtin("Reinterpret(a) (the planner's rowtime marker)", List.of("REINTERPRET"), "only between"
                        + " two TIMESTAMPs or two TIMESTAMP_LTZs (a computed rowtime column): the value unchanged",
                        LogicalFunctions::reinterpret));
    }

    /** The planner's Reinterpret marks a computed timestamp as the rowtime attribute; the value is unchanged. */
    private static Expression reinterpret(RexCall call, ExpressionConverter c) {
        LogicalType from = ExpressionConverter.type(call.getOperands().get(0));
        LogicalType to = ExpressionConverter.type(call);
        if (!SubstraitTypes.isRoot(from, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE)
                || from.getTypeRoot() != to.getTypeRoot()) {
            throw new NotReproducible("Reinterpret from " + from.asSummaryString() + " to " + to.asSummaryString()
                    + " is not supported");
        }
        return c.convert(call.getOperands().get(0));
    }

    /** n-ary AND/OR as nested binary calls, left to right. */
    private static Expression fold(RexCall call, ExpressionConverter c, String name) {
        LogicalType result = ExpressionConverter.type(call);
        Expression out = c.convert(call.getOperands().get(0));
        for (int i = 1; i < call.getOperands().size(); i++) {
            out = c.call(Urns.BOOLEAN, name, result, List.of(out, c.convert(call.getOperands().get(i))));
        }
        return out;
    }

    private static Expression unary(RexCall call, ExpressionConverter c, String name) {
        String urn = name.equals("not") ? Urns.BOOLEAN : Urns.COMPARISON;
        return c.call(urn, name, ExpressionConverter.type(call), List.of(c.convert(call.getOperands().get(0))));
    }

    private static Expression caseWhen(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        List<RexNode> operands = call.getOperands();
        Expression.IfThen.Builder ifThen = Expression.IfThen.newBuilder();
        for (int i = 0; i + 1 < operands.size(); i += 2) {
            ifThen.addIfs(Expression.IfThen.IfClause.newBuilder()
                    .setIf(c.convert(operands.get(i)))
                    .setThen(c.operand(call, i + 1, result)));
        }
        ifThen.setElse(c.operand(call, operands.size() - 1, result));
        return Expression.newBuilder().setIfThen(ifThen).build();
    }

    private static Expression coalesce(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        List<Expression> arguments = new ArrayList<>();
        for (int i = 0; i < call.getOperands().size(); i++) {
            arguments.add(c.operand(call, i, result));
        }
        return c.call(Urns.COMPARISON, "coalesce", result, arguments);
    }
}
