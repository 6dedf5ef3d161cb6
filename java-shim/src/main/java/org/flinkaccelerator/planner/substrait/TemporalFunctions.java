package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.flinkUdf;

import java.util.List;
import java.util.Map;
import org.apache.calcite.avatica.util.TimeUnit;
import org.apache.calcite.avatica.util.TimeUnitRange;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.type.SqlTypeName;
import io.substrait.proto.Expression;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.flinkaccelerator.stage.JsonText;

/**
 * EXTRACT of a time-of-day field from a TIMESTAMP (also HOUR(ts), MINUTE(ts), SECOND(ts), which
 * the planner turns into EXTRACT). Flink's generated code computes these from the epoch
 * milliseconds as {@code (millis % <next unit up>) / <unit>} with Java's truncating operators, so a
 * time before 1970 gives negative fields; the sidecar's {@code flink_extract} does the same
 * arithmetic. The calendar units go through Flink's date code and are not reproduced yet. Also
 * the integer TO_TIMESTAMP_LTZ, a timestamp plus a day-time INTERVAL and DATE_FORMAT of a TIMESTAMP
 * with a numeric literal pattern.
 */
final class TemporalFunctions {
    /** Per unit, the unit above it that Flink takes the remainder of. */
    private static final Map<TimeUnit, TimeUnit> WITHIN = Map.of(
            TimeUnit.HOUR, TimeUnit.DAY, TimeUnit.MINUTE, TimeUnit.HOUR, TimeUnit.SECOND, TimeUnit.MINUTE,
            TimeUnit.MILLISECOND, TimeUnit.SECOND);

    private TemporalFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(flinkUdf("EXTRACT(HOUR|MINUTE|SECOND|MILLISECOND FROM ts), HOUR(ts), MINUTE(ts), SECOND(ts)",
                List.of("EXTRACT"), "flink_extract: of a TIMESTAMP, Flink's (epoch ms % next unit) / unit with Java's"
                        + " truncating operators (negative before 1970, as on Flink); other units and types (dates,"
                        + " TIMESTAMP_LTZ, TIME) not reproduced yet", TemporalFunctions::extract),
                flinkUdf("TO_TIMESTAMP_LTZ(n), TO_TIMESTAMP_LTZ(n, 0|3)", List.of("TO_TIMESTAMP_LTZ"),
                        "flink_to_timestamp_ltz: an integer of epoch seconds (precision 0) or milliseconds (3, the"
                        + " default); NULL outside the years 0000-9999, as Flink; DOUBLE, DECIMAL and strings not"
                        + " reproduced yet", TemporalFunctions::toTimestampLtz),
                flinkUdf("DATE_FORMAT(ts, pattern)", List.of("DATE_FORMAT"), "flink_date_format: a TIMESTAMP and a"
                        + " literal pattern of the numeric letters y u M d H h k K m s S, quoted text and other"
                        + " characters, printed as Java's DateTimeFormatter prints them (y is the year of era:"
                        + " 0001 for the year 0000); TIMESTAMP_LTZ (the session time zone), STRING input (parsed"
                        + " first), text letters (month and day names, AM/PM: the JVM's locale), week, zone and"
                        + " other letters and optional sections not reproduced yet", TemporalFunctions::dateFormat));
    }

    static boolean isTimestamp(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                || type.getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    /**
     * A TIMESTAMP or TIMESTAMP_LTZ plus (or minus) a day-time INTERVAL literal, as in a
     * {@code WATERMARK FOR ts AS ts - INTERVAL '5' SECOND}: Flink shifts the epoch milliseconds and
     * keeps the digits below a millisecond; {@code flink_timestamp_plus_millis} does the same.
     * Year-month intervals go through Flink's calendar code and are not reproduced.
     */
    static Expression plusInterval(RexCall call, ExpressionConverter c, boolean minus) {
        int timestamp = isTimestamp(ExpressionConverter.type(call.getOperands().get(0))) ? 0 : 1;
        if (minus && timestamp != 0) {
            throw new NotReproducible("an INTERVAL minus a timestamp is not a Flink expression");
        }
        if (!(call.getOperands().get(1 - timestamp) instanceof RexLiteral interval)
                || !SqlTypeName.DAY_INTERVAL_TYPES.contains(interval.getType().getSqlTypeName())) {
            throw new NotReproducible("a timestamp " + (minus ? "minus" : "plus") + " anything but a day-time"
                    + " INTERVAL literal is not reproduced yet");
        }
        long millis = interval.getValueAs(Long.class);
        LogicalType result = ExpressionConverter.type(call);
        Expression shift = Literals.int64(minus ? Math.negateExact(millis) : millis);
        return c.call(Urns.FLINK, "flink_timestamp_plus_millis", result,
                List.of(c.convert(call.getOperands().get(timestamp)), shift));
    }

    /**
     * TO_TIMESTAMP_LTZ of an integer, a computed rowtime's usual form ({@code ts AS
     * TO_TIMESTAMP_LTZ(ms, 3)}): Flink's {@code DateTimeUtils.toTimestampData(long, precision)}
     * scales seconds to milliseconds and gives NULL outside the years 0000-9999.
     */
    private static Expression toTimestampLtz(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        LogicalType epoch = ExpressionConverter.type(operands.get(0));
        // TO_TIMESTAMP_LTZ(string, format[, zone]) has a CHAR literal second: only read an integer one.
        Integer precision = operands.size() == 1 ? Integer.valueOf(3)
                : operands.size() == 2 && operands.get(1) instanceof RexLiteral literal
                        && SqlTypeName.INT_TYPES.contains(literal.getType().getSqlTypeName())
                        ? literal.getValueAs(Integer.class) : null;
        if (!epoch.is(LogicalTypeFamily.INTEGER_NUMERIC) || precision == null || (precision != 0 && precision != 3)) {
            String form = !epoch.is(LogicalTypeFamily.INTEGER_NUMERIC) ? epoch.asSummaryString()
                    : epoch.asSummaryString() + " with precision " + (precision == null ? "not a literal" : precision);
            throw new NotReproducible("TO_TIMESTAMP_LTZ of " + form + ": only an integer with precision 0 or 3"
                    + " is reproduced yet");
        }
        return c.call(Urns.FLINK, "flink_to_timestamp_ltz", ExpressionConverter.type(call), List.of(
                c.operand(call, 0, new BigIntType(epoch.isNullable())), Literals.int64(precision == 0 ? 1000 : 1)));
    }

    /**
     * DATE_FORMAT of a TIMESTAMP with a literal pattern: Flink 2.2.1 calls
     * {@code DateTimeUtils.formatTimestamp(ts, pattern)}, which formats the value as a LocalDateTime
     * in UTC with {@code DateTimeFormatter.ofPattern(pattern)}; the sidecar runs the printers that
     * {@link DateTimePatternSubset} reads from the pattern. Of a TIMESTAMP_LTZ Flink formats in the
     * session time zone, and a STRING it first parses with SimpleDateFormat: both stay stock.
     */
    private static Expression dateFormat(RexCall call, ExpressionConverter c) {
        List<RexNode> operands = call.getOperands();
        LogicalType input = ExpressionConverter.type(operands.get(0));
        if (input.getTypeRoot() != LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            throw new NotReproducible("DATE_FORMAT of " + input.asSummaryString() + ": only a TIMESTAMP is"
                    + " reproduced yet (Flink formats a TIMESTAMP_LTZ in the session time zone and parses a"
                    + " string with SimpleDateFormat first)");
        }
        if (operands.size() != 2 || !(operands.get(1) instanceof RexLiteral pattern) || pattern.isNull()) {
            throw new NotReproducible("DATE_FORMAT with a pattern that is not a literal string is not reproduced");
        }
        String printers = JsonText.compact(DateTimePatternSubset.printers(pattern.getValueAs(String.class)));
        return c.call(Urns.FLINK, "flink_date_format", ExpressionConverter.type(call), List.of(
                c.convert(operands.get(0)), Literals.string(printers)));
    }

    private static Expression extract(RexCall call, ExpressionConverter c) {
        TimeUnit unit = ((RexLiteral) call.getOperands().get(0)).getValueAs(TimeUnitRange.class).startUnit;
        LogicalType operand = ExpressionConverter.type(call.getOperands().get(1));
        if (!WITHIN.containsKey(unit) || operand.getTypeRoot() != LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
            throw new NotReproducible("EXTRACT(" + unit + " FROM " + operand.asSummaryString() + "): only HOUR, MINUTE,"
                    + " SECOND and MILLISECOND of a TIMESTAMP are reproduced yet");
        }
        return c.call(Urns.FLINK, "flink_extract", ExpressionConverter.type(call), List.of(
                c.convert(call.getOperands().get(1)), Literals.int64(WITHIN.get(unit).multiplier.longValueExact()),
                Literals.int64(unit.multiplier.longValueExact())));
    }
}
