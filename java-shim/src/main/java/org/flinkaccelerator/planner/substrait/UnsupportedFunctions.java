package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.unsupported;

import java.util.List;

/** Functions known not to be reproducible exactly, with the reason a segment using them stays stock. */
final class UnsupportedFunctions {
    private UnsupportedFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                unsupported("NOW(), CURRENT_TIMESTAMP, LOCALTIMESTAMP, CURRENT_DATE, CURRENT_TIME, PROCTIME()",
                        List.of("NOW", "CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "CURRENT_DATE", "CURRENT_TIME", "PROCTIME"),
                        "read the clock per record in Flink's streaming mode; not reproduced yet"),
                unsupported("RAND(), RAND_INTEGER(), UUID()", List.of("RAND", "RAND_INTEGER", "UUID"),
                        "non-deterministic"),
                unsupported("REGEXP, REGEXP_REPLACE, SIMILAR TO",
                        List.of("REGEXP", "REGEXP_REPLACE", "SIMILAR"),
                        "Java regular expressions differ from Rust's regex crate"),
                unsupported("POWER, SQRT, EXP, LN, LOG, LOG10, SIN, COS, TAN, ...",
                        List.of("POWER", "SQRT", "EXP", "LN", "LOG", "LOG10", "LOG2", "SIN", "COS", "TAN", "ASIN",
                                "ACOS", "ATAN", "ATAN2", "SINH", "COSH", "TANH", "COT", "DEGREES", "RADIANS"),
                        "Java's Math and Rust's libm may differ in the last bit"),
                unsupported("ROUND, TRUNCATE, CEIL, FLOOR", List.of("ROUND", "TRUNCATE", "CEIL", "FLOOR"),
                        "Flink's rounding modes and result types not reproduced yet"),
                unsupported("TRY_CAST", List.of("TRY_CAST"), "not reproduced yet"),
                unsupported("TO_TIMESTAMP, TO_DATE, UNIX_TIMESTAMP, FROM_UNIXTIME, ...",
                        List.of("TO_TIMESTAMP", "TO_DATE", "UNIX_TIMESTAMP", "FROM_UNIXTIME"),
                        "Java date-time formatting and time zones not reproduced yet"),
                unsupported("JSON_VALUE, JSON_QUERY, JSON_EXISTS, JSON_OBJECT, JSON_ARRAY",
                        List.of("JSON_VALUE", "JSON_QUERY", "JSON_EXISTS", "JSON_OBJECT", "JSON_ARRAY"),
                        "not reproduced yet"));
    }
}
