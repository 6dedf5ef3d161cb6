package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Which tables of Flink's built-in {@code raw} format the sidecar reproduces exactly. The sidecar
 * checks the same before it opens a stage ({@code accelerator.formats.raw.supported}); this side
 * must never accept more than it, so it is the stricter of the two where they could differ.
 */
final class RawSupport {
    private static final String CHARSET = "raw.charset";
    private static final String ENDIANNESS = "raw.endianness";
    /** Names Java resolves to UTF-8 (the string's own bytes). */
    private static final Set<String> UTF8_NAMES = Set.of("utf-8", "utf8", "unicode-1-1-utf-8");
    /**
     * Names of single-byte charsets whose replacement of what they cannot map the sidecar
     * reproduces both ways (ISO-8859-1 and US-ASCII, as {@code accelerator.formats.raw.CHARSETS}).
     */
    private static final Set<String> SINGLE_BYTE_NAMES = Set.of("iso-8859-1", "iso8859-1", "iso8859_1",
            "iso_8859_1", "latin1", "l1", "us-ascii", "ascii");
    /** UTF-16 with a fixed byte order: reproduced when encoding only. */
    private static final Set<String> UTF16_NAMES = Set.of("utf-16be", "utf-16le");
    private static final Set<LogicalTypeRoot> COLUMN_TYPES = EnumSet.of(LogicalTypeRoot.BOOLEAN,
            LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT,
            LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY);

    private RawSupport() {}

    /** Why the value row {@code row} with the table's {@code options} is not reproduced (empty: it is). */
    static List<String> problems(RowType row, Map<String, String> options, boolean decoding) {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> option : options.entrySet()) {
            String value = option.getValue().toLowerCase(Locale.ROOT);
            if (option.getKey().equals(CHARSET)) {
                if (UTF16_NAMES.contains(value) && decoding) {
                    problems.add("'" + CHARSET + "' = '" + option.getValue() + "' is not accelerated when decoding");
                } else if (!UTF8_NAMES.contains(value) && !SINGLE_BYTE_NAMES.contains(value)
                        && !UTF16_NAMES.contains(value)) {
                    problems.add("'" + CHARSET + "' = '" + option.getValue() + "' is not accelerated (only UTF-8,"
                            + " ISO-8859-1, US-ASCII, and UTF-16BE/LE when encoding)");
                }
            } else if (option.getKey().equals(ENDIANNESS)) {
                if (!value.equals("big-endian") && !value.equals("little-endian")) {
                    problems.add("'" + ENDIANNESS + "' = '" + option.getValue() + "' is not a byte order");
                }
            } else {
                problems.add("raw option '" + option.getKey() + "' is not accelerated");
            }
        }
        if (row.getFieldCount() != 1) {
            problems.add("the raw format has exactly one column, this row has " + row.getFieldCount());
        } else if (!COLUMN_TYPES.contains(row.getTypeAt(0).getTypeRoot())) {
            problems.add(row.getTypeAt(0).asSummaryString() + " is not accelerated in the raw format");
        }
        return problems;
    }
}
