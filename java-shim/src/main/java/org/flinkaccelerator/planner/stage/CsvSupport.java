package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.flinkaccelerator.FlinkVersionSupport;

/**
 * Which tables of Flink's {@code csv} format (flink-csv 2.2.1) the sidecar reproduces exactly, when
 * decoding and when encoding. The sidecar checks the same before it opens a stage
 * ({@code accelerator.formats.csv.supported}); this side must never accept more than it, so it is
 * the stricter of the two where they could differ.
 */
final class CsvSupport {
    private static final String FIELD_DELIMITER = "csv.field-delimiter";
    private static final String DISABLE_QUOTE = "csv.disable-quote-character";
    private static final String QUOTE = "csv.quote-character";
    private static final String ALLOW_COMMENTS = "csv.allow-comments";
    private static final String IGNORE_PARSE_ERRORS = "csv.ignore-parse-errors";
    private static final String ARRAY_DELIMITER = "csv.array-element-delimiter";
    private static final String ESCAPE = "csv.escape-character";
    private static final String NULL_LITERAL = "csv.null-literal";
    private static final String SCIENTIFIC = "csv.write-bigdecimal-in-scientific-notation";
    private static final Set<String> BOOLEANS = Set.of(DISABLE_QUOTE, ALLOW_COMMENTS, IGNORE_PARSE_ERRORS, SCIENTIFIC);

    /** Column types (and array element types) reproduced both ways; TIME only up to precision 3 when decoding. */
    private static final Set<LogicalTypeRoot> SCALARS = EnumSet.of(LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.TINYINT,
            LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.FLOAT,
            LogicalTypeRoot.DOUBLE, LogicalTypeRoot.DECIMAL, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY, LogicalTypeRoot.DATE,
            LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    /** The largest TIME precision Flink's csv format decodes (it refuses the rest). */
    private static final int MAX_DECODED_TIME_PRECISION = 3;

    private CsvSupport() {}

    /** Why the value row {@code row} with the table's {@code options} is not reproduced (empty: it is). */
    static List<String> problems(RowType row, Map<String, String> options, boolean decoding) {
        return problems(row, options, decoding, EnvironmentInformation.getVersion());
    }

    static List<String> problems(RowType row, Map<String, String> options, boolean decoding, String flinkVersion) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey();
            String value = option.getValue();
            if (BOOLEANS.contains(key)) {
                String lower = value.toLowerCase(Locale.ROOT);
                if (!lower.equals("true") && !lower.equals("false")) {
                    problems.add("'" + key + "' = '" + value + "' is not a boolean");
                } else if (decoding && lower.equals("true") && (key.equals(ALLOW_COMMENTS) || key.equals(DISABLE_QUOTE))) {
                    problems.add("'" + key + "' = 'true' is not accelerated when decoding");
                }
            } else if (key.equals(FIELD_DELIMITER)) {
                if (!value.equals("\\t") && !value.equals("\t") && !plain(value)) {
                    problems.add("'" + key + "' = '" + value + "' is not accelerated (a single ASCII punctuation"
                            + " character or a tab)");
                }
            } else if (key.equals(QUOTE)) {
                if (!plain(value)) {
                    problems.add("'" + key + "' = '" + value + "' is not accelerated (a single ASCII punctuation character)");
                }
            } else if (key.equals(ESCAPE)) {
                if (decoding || !value.equals("\\")) {
                    problems.add("'" + key + "' = '" + value + "' is not accelerated" + (decoding ? " when decoding"
                            : " (only a backslash)"));
                }
            } else if (key.equals(ARRAY_DELIMITER)) {
                if (!plain(value)) {
                    problems.add("'" + key + "' = '" + value + "' is not accelerated (a single ASCII punctuation"
                            + " character)");
                }
            } else if (!key.equals(NULL_LITERAL)) {
                problems.add("csv option '" + key + "' is not accelerated");
            }
        }
        boolean quoteDisabled = "true".equalsIgnoreCase(options.get(DISABLE_QUOTE));
        if (quoteDisabled && options.containsKey(QUOTE)) {
            problems.add("'" + QUOTE + "' and '" + DISABLE_QUOTE + "' are both set");
        }
        if (quoteDisabled && options.containsKey(ESCAPE)) {
            problems.add("'" + ESCAPE + "' with quoting disabled is not accelerated");
        }
        String delimiter = options.getOrDefault(FIELD_DELIMITER, ",");
        if (!quoteDisabled && delimiter.equals(options.getOrDefault(QUOTE, "\""))) {
            problems.add("the quote character and the field delimiter are the same");
        }
        for (RowType.RowField field : row.getFields()) {
            LogicalType type = field.getType();
            // Flink's csv format refuses arrays of arrays or rows itself; arrays of scalars are reproduced.
            LogicalType scalar = type.getTypeRoot() == LogicalTypeRoot.ARRAY ? ((ArrayType) type).getElementType() : type;
            if (!SCALARS.contains(scalar.getTypeRoot())) {
                problems.add(type.asSummaryString() + " is not accelerated in the csv format when "
                        + (decoding ? "decoding" : "encoding"));
            } else if (!decoding && scalar.getTypeRoot() == LogicalTypeRoot.DECIMAL
                    && !FlinkVersionSupport.csvDecimalKeepsScale(flinkVersion)) {
                problems.add(field.getName() + ": Flink " + flinkVersion + "'s csv format writes DECIMAL without its"
                        + " trailing zeros, which the accelerator does not reproduce (it writes 2.x's, with the"
                        + " column's scale)");
            } else if (decoding && scalar instanceof TimeType time && time.getPrecision() > MAX_DECODED_TIME_PRECISION) {
                problems.add(type.asSummaryString() + ": Flink's csv format does not decode TIME with a precision"
                        + " above " + MAX_DECODED_TIME_PRECISION);
            }
        }
        return problems;
    }

    /** A single printable ASCII character that is neither a letter, a digit nor a backslash. */
    private static boolean plain(String value) {
        if (value.length() != 1) {
            return false;
        }
        char c = value.charAt(0);
        return c > ' ' && c < 0x7F && c != '\\' && !Character.isLetterOrDigit(c);
    }
}
