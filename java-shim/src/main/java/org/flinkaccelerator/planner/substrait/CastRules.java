package org.flinkaccelerator.planner.substrait;

import static org.apache.flink.table.types.logical.LogicalTypeRoot.ARRAY;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.BIGINT;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.BINARY;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.CHAR;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.DECIMAL;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.DOUBLE;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.FLOAT;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.INTEGER;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.MAP;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.SMALLINT;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.TINYINT;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.VARBINARY;
import static org.apache.flink.table.types.logical.LogicalTypeRoot.VARCHAR;

import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Which CASTs an Arrow cast performs exactly as Flink does. Flink wraps narrowing integer casts,
 * pads CHAR, truncates VARCHAR(n), rounds DECIMAL HALF_UP and prints doubles and booleans its own
 * way; Arrow does none of that the same way, so those stay stock. A DECIMAL too narrow for some
 * values is NULL in Flink, which an Arrow cast that returns NULL on failure reproduces.
 */
final class CastRules {
    private static final List<LogicalTypeRoot> INTEGERS = List.of(TINYINT, SMALLINT, INTEGER, BIGINT);
    /** Decimal digits each integer type can hold, and the longest text it prints as. */
    private static final int[] DIGITS = {3, 5, 10, 19};
    private static final int[] TEXT_LENGTH = {4, 6, 11, 20};

    private CastRules() {}

    /** Null when CAST(from AS to) is reproduced exactly; otherwise why not. */
    static String problem(LogicalType from, LogicalType to) {
        if (from.copy(true).equals(to.copy(true))) {
            return null;
        }
        LogicalTypeRoot source = from.getTypeRoot();
        LogicalTypeRoot target = to.getTypeRoot();
        if (INTEGERS.contains(source)) {
            if (INTEGERS.contains(target)) {
                return INTEGERS.indexOf(target) >= INTEGERS.indexOf(source) ? null
                        : "narrowing integer CAST wraps in Flink and fails in DataFusion";
            }
            if (target == DECIMAL) {
                return null;
            }
            if (target == FLOAT || target == DOUBLE) {
                return null;
            }
            if (target == VARCHAR) {
                return LogicalTypeChecks.getLength(to) >= TEXT_LENGTH[INTEGERS.indexOf(source)] ? null
                        : "CAST to a VARCHAR shorter than the number's text truncates in Flink";
            }
        }
        if (source == ARRAY && target == ARRAY) {
            return elementProblem("element", ((ArrayType) from).getElementType(), ((ArrayType) to).getElementType());
        }
        if (source == MAP && target == MAP) {
            MapType a = (MapType) from;
            MapType b = (MapType) to;
            String key = elementProblem("key", a.getKeyType(), b.getKeyType());
            return key != null ? key : elementProblem("value", a.getValueType(), b.getValueType());
        }
        if (source == DECIMAL && target == DECIMAL) {
            DecimalType a = (DecimalType) from;
            DecimalType b = (DecimalType) to;
            return b.getScale() >= a.getScale() ? null : "DECIMAL CAST to a smaller scale (Flink rounds HALF_UP)";
        }
        if (source == FLOAT && target == DOUBLE) {
            return null;
        }
        if ((source == CHAR || source == VARCHAR) && target == VARCHAR) {
            return LogicalTypeChecks.getLength(to) >= LogicalTypeChecks.getLength(from) ? null
                    : "CAST to a shorter VARCHAR truncates in Flink";
        }
        if ((source == BINARY || source == VARBINARY) && target == VARBINARY) {
            return LogicalTypeChecks.getLength(to) >= LogicalTypeChecks.getLength(from) ? null
                    : "CAST to a shorter VARBINARY truncates in Flink";
        }
        if ((source == TIMESTAMP_WITHOUT_TIME_ZONE && target == TIMESTAMP_WITHOUT_TIME_ZONE)
                || (source == TIMESTAMP_WITH_LOCAL_TIME_ZONE && target == TIMESTAMP_WITH_LOCAL_TIME_ZONE)) {
            return LogicalTypeChecks.getPrecision(to) >= LogicalTypeChecks.getPrecision(from) ? null
                    : "CAST to a lower timestamp precision truncates in Flink";
        }
        return "CAST from " + from.asSummaryString() + " to " + to.asSummaryString() + " is not reproduced exactly yet";
    }

    /**
     * Flink casts an ARRAY's elements (a MAP's keys and values) one by one with the element CAST,
     * as Arrow's cast of a list or map does; a CAST that gives NULL on overflow is left to Flink
     * (the plan's failure behaviour applies to the whole value).
     */
    private static String elementProblem(String part, LogicalType from, LogicalType to) {
        String problem = problem(from, to);
        if (problem != null) {
            return "CAST of a collection's " + part + ": " + problem;
        }
        return nullOnOverflow(from, to) ? "CAST of a collection whose " + part + " CAST gives NULL on overflow"
                + " is not reproduced yet" : null;
    }

    /**
     * Whether some values of {@code from} do not fit {@code to}: Flink's CAST then gives NULL, so
     * the plan's CAST must return NULL on failure instead of failing. Only for reproducible casts.
     */
    static boolean nullOnOverflow(LogicalType from, LogicalType to) {
        if (to.getTypeRoot() != DECIMAL) {
            return false;
        }
        DecimalType target = (DecimalType) to;
        int integerDigits = from.getTypeRoot() == DECIMAL
                ? ((DecimalType) from).getPrecision() - ((DecimalType) from).getScale() : integerDigits(from);
        return target.getPrecision() - target.getScale() < integerDigits;
    }

    static boolean isInteger(LogicalType type) {
        return INTEGERS.contains(type.getTypeRoot());
    }

    /** The decimal digits of the widest value of an integer type. */
    static int integerDigits(LogicalType type) {
        return DIGITS[INTEGERS.indexOf(type.getTypeRoot())];
    }

    /** The wider of two integer types. */
    static LogicalType widerInteger(LogicalType a, LogicalType b) {
        return INTEGERS.indexOf(a.getTypeRoot()) >= INTEGERS.indexOf(b.getTypeRoot()) ? a : b;
    }
}
