package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.flinkUdf;

import io.substrait.proto.Expression;
import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Regular-expression functions, for literal patterns inside {@link JavaRegexSubset}. Flink 2.2.1
 * runs REGEXP_EXTRACT as SqlFunctionUtils.regexpExtract: NULL if any argument is NULL, the first
 * Matcher.find() match, NULL without a match, NULL for a group that takes no part in it, and NULL
 * (after logging an error per row) for an invalid pattern or a group index out of range.
 */
final class RegexpFunctions {
    private RegexpFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(flinkUdf("REGEXP_EXTRACT(s, pattern [, i])", List.of("REGEXP_EXTRACT"),
                "flink_regexp_extract: literal pattern in a subset of Java's syntax that RE2 matches alike (literals,"
                        + " ASCII classes, \\d \\w \\s, groups, |, ^, greedy quantifiers on single characters; no"
                        + " '.', '$' or '?' character) and a literal group index of a group that takes part in every"
                        + " match (none inside an alternation); other calls stay stock",
                RegexpFunctions::regexpExtract));
    }

    private static Expression regexpExtract(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        LogicalType input = ExpressionConverter.type(operands.get(0));
        if (!SubstraitTypes.isRoot(input, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR)) {
            throw new NotReproducible("REGEXP_EXTRACT on " + input.asSummaryString() + " is not supported yet");
        }
        if (!(operands.get(1) instanceof RexLiteral pattern) || pattern.isNull()) {
            throw new NotReproducible("REGEXP_EXTRACT with a pattern that is not a literal string is not supported");
        }
        JavaRegexSubset.Translation regex = JavaRegexSubset.translate(pattern.getValueAs(String.class));
        int index = operands.size() > 2 ? groupIndex(operands.get(2), regex) : 0;
        return c.call(Urns.FLINK, "flink_regexp_extract", ExpressionConverter.type(call), List.of(
                c.convert(operands.get(0)), Literals.string(regex.re2()), Literals.int32(index)));
    }

    private static int groupIndex(RexNode operand, JavaRegexSubset.Translation regex) {
        if (!(operand instanceof RexLiteral literal) || literal.isNull()
                || !SubstraitTypes.isRoot(ExpressionConverter.type(operand), LogicalTypeRoot.TINYINT,
                        LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT)) {
            throw new NotReproducible("REGEXP_EXTRACT with a group index that is not an integer literal is not supported");
        }
        BigDecimal value = literal.getValueAs(BigDecimal.class);
        if (value.signum() < 0 || value.compareTo(BigDecimal.valueOf(regex.groupCount())) > 0) {
            throw new NotReproducible("REGEXP_EXTRACT group " + value + " of a pattern with " + regex.groupCount()
                    + " groups (Flink logs an error and returns NULL per row; not reproduced)");
        }
        int index = value.intValueExact();
        if (!regex.participates(index)) {
            throw new NotReproducible("REGEXP_EXTRACT group " + index + " sits inside an alternation, where Flink gives"
                    + " NULL when it takes no part in the match (RE2 gives '')");
        }
        return index;
    }
}
