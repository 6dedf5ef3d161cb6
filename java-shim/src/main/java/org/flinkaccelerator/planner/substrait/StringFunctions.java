package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.builtin;
import static org.flinkaccelerator.planner.substrait.FunctionEntry.flinkUdf;

import io.substrait.proto.Expression;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlTrimFunction;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * String functions. Flink counts characters in code points, as DataFusion's character functions
 * do; where Flink's edge cases differ (SUBSTRING positions, CONCAT with NULL, SPLIT_INDEX) the
 * sidecar's own UDFs implement Flink's rules.
 */
final class StringFunctions {
    private StringFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                builtin("UPPER(s)", List.of("UPPER"), "full Unicode case mapping; identical for characters"
                        + " both Java's and Rust's Unicode tables know", (call, c) -> strings(call, c, "upper")),
                builtin("LOWER(s)", List.of("LOWER"), "as UPPER", (call, c) -> strings(call, c, "lower")),
                builtin("CHAR_LENGTH(s)", List.of("CHAR_LENGTH", "CHARACTER_LENGTH"), "code points",
                        (call, c) -> strings(call, c, "character_length")),
                flinkUdf("SUBSTRING(s FROM p [FOR n]), SUBSTR", List.of("SUBSTRING", "SUBSTR"), "flink_substring:"
                        + " Flink's positions (0 = 1, negative counts from the end, negative length is NULL)",
                        StringFunctions::substring),
                flinkUdf("a || b, CONCAT(a, ...)", List.of("||", "CONCAT"), "flink_concat: NULL if any"
                        + " argument is NULL (DataFusion's concat skips NULLs)", StringFunctions::concat),
                builtin("TRIM([BOTH|LEADING|TRAILING] [chars] FROM s)", List.of("TRIM"), "removes characters in"
                        + " the literal set, as btrim/ltrim/rtrim", StringFunctions::trim),
                builtin("s LIKE pattern", List.of("LIKE"), "literal patterns without backslash and without ESCAPE"
                        + " (DataFusion treats backslash as an escape, Flink does not)", StringFunctions::like),
                builtin("REPLACE(s, search, replacement)", List.of("REPLACE"), "literal non-empty search without"
                        + " '?' (the sidecar holds a lone surrogate as '?'); every non-overlapping occurrence from the"
                        + " left, as Java's String.replace", StringFunctions::replace),
                flinkUdf("SPLIT_INDEX(s, sep, i)", List.of("SPLIT_INDEX"), "flink_split_index: literal non-empty"
                        + " separator; NULL for a negative or out-of-range index; '' splits to nothing",
                        StringFunctions::splitIndex));
    }

    private static Expression strings(RexCall call, ExpressionConverter c, String name) {
        requireStrings(call, call.getOperands());
        return c.call(Urns.STRING, name, ExpressionConverter.type(call), List.of(c.convert(call.getOperands().get(0))));
    }

    private static Expression substring(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        requireStrings(call, operands.subList(0, 1));
        LogicalType integer = new IntType();
        Expression length = operands.size() > 2 ? c.operand(call, 2, integer.copy(nullable(operands.get(2))))
                : Literals.int32(Integer.MAX_VALUE);
        return c.call(Urns.FLINK, "flink_substring", ExpressionConverter.type(call), List.of(
                c.convert(operands.get(0)), c.operand(call, 1, integer.copy(nullable(operands.get(1)))), length));
    }

    /** Nested two-argument calls keep "NULL if any argument is NULL" for any arity. */
    private static Expression concat(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        requireStrings(call, operands);
        LogicalType result = ExpressionConverter.type(call);
        Expression out = c.convert(operands.get(0));
        for (int i = 1; i < operands.size(); i++) {
            out = c.call(Urns.FLINK, "flink_concat", result, List.of(out, c.convert(operands.get(i))));
        }
        return out;
    }

    private static Expression trim(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        SqlTrimFunction.Flag flag = ((RexLiteral) operands.get(0)).getValueAs(SqlTrimFunction.Flag.class);
        if (!(operands.get(1) instanceof RexLiteral)) {
            throw new NotReproducible("TRIM with non-literal characters is not supported yet");
        }
        requireStrings(call, operands.subList(1, 3));
        String name = flag == SqlTrimFunction.Flag.LEADING ? "ltrim" : flag == SqlTrimFunction.Flag.TRAILING ? "rtrim" : "btrim";
        return c.call(Urns.STRING, name, ExpressionConverter.type(call),
                List.of(c.convert(operands.get(2)), c.convert(operands.get(1))));
    }

    private static Expression like(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        requireStrings(call, operands);
        if (operands.size() != 2 || !(operands.get(1) instanceof RexLiteral)
                || ((RexLiteral) operands.get(1)).getValueAs(String.class).contains("\\")) {
            throw new NotReproducible("LIKE with an ESCAPE clause, a backslash or a non-literal pattern"
                    + " (DataFusion treats backslash as an escape, Flink does not)");
        }
        return c.call(Urns.STRING, "like", ExpressionConverter.type(call),
                List.of(c.convert(operands.get(0)), c.convert(operands.get(1))));
    }

    private static Expression replace(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        requireStrings(call, operands);
        RexNode search = operands.get(1);
        if (!(search instanceof RexLiteral) || ((RexLiteral) search).isNull()
                || ((RexLiteral) search).getValueAs(String.class).isEmpty()
                || ((RexLiteral) search).getValueAs(String.class).contains("?")) {
            throw new NotReproducible("REPLACE with an empty, non-literal or '?'-holding search string (Java inserts"
                    + " at every UTF-16 unit for an empty one; the sidecar holds a lone surrogate as '?')");
        }
        return c.call(Urns.STRING, "replace", ExpressionConverter.type(call),
                List.of(c.convert(operands.get(0)), c.convert(search), c.convert(operands.get(2))));
    }

    private static Expression splitIndex(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        requireStrings(call, operands.subList(0, 2));
        RexNode separator = operands.get(1);
        if (!(separator instanceof RexLiteral) || ((RexLiteral) separator).isNull()
                || ((RexLiteral) separator).getValueAs(String.class).isEmpty()) {
            throw new NotReproducible("SPLIT_INDEX with an empty or non-literal separator (Flink then splits on whitespace)");
        }
        return c.call(Urns.FLINK, "flink_split_index", ExpressionConverter.type(call), List.of(
                c.convert(operands.get(0)), c.convert(separator),
                c.operand(call, 2, new IntType(nullable(operands.get(2))))));
    }

    private static boolean nullable(RexNode node) {
        return node.getType().isNullable();
    }

    private static void requireStrings(RexCall call, List<RexNode> operands) {
        for (RexNode operand : operands) {
            LogicalType type = ExpressionConverter.type(operand);
            if (!SubstraitTypes.isRoot(type, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR)) {
                throw new NotReproducible(call.getOperator().getName() + " on " + type.asSummaryString()
                        + " is not supported yet");
            }
        }
    }
}
