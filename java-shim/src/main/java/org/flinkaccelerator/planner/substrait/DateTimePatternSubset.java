package org.flinkaccelerator.planner.substrait;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numeric part of {@code DateTimeFormatter.ofPattern} syntax, which Flink 2.2.1's DATE_FORMAT
 * of a TIMESTAMP formats with ({@code DateTimeUtils.formatTimestamp}: the pattern's formatter over
 * the value as a LocalDateTime in UTC, ISO chronology), translated into the printers the JDK's
 * builder makes of it, for the sidecar's {@code flink_date_format} to run.
 *
 * <p>Accepted, split and counted as {@code DateTimeFormatterBuilder.appendPattern} does: the letters
 * {@code y u M d H h k K m s S} with the counts that print a number ({@code y}/{@code u} 1-10,
 * {@code M d H h k K m s} 1-2, {@code S} 1-9), quoted text ({@code 'T'}, {@code ''} for a quote),
 * and any other character outside ASCII letters and {@code [ ] { } #} as itself. Every printer
 * then depends on the value only: the JDK prints numbers with {@code DecimalStyle.STANDARD}
 * whatever the locale. Refused: every other letter (text fields such as {@code MMM E a G} follow
 * the JVM's locale; week fields its week rules; zones a TIMESTAMP has none of), optional sections,
 * counts the JDK rejects (stock Flink fails the job on such a pattern; stock keeps that failure)
 * and UTF-16 surrogates, which a Substrait string cannot carry unpaired.
 *
 * <p>Printers, as a JSON array: {@code {"literal": text}}; {@code {"value": field, "width": n,
 * "sign": NORMAL|NOT_NEGATIVE|EXCEEDS_PAD}} (the JDK's NumberPrinterParser: zero-padded to n
 * digits, '-' before a negative value, and under EXCEEDS_PAD '+' before one of more than n
 * digits); {@code {"reduced": field}} (two digits, |value| mod 100, as the JDK's
 * ReducedPrinterParser of width 2); {@code {"fraction": n}} (the first n of the 9 digits of the
 * nano-of-second, FractionPrinterParser without a decimal point).
 */
final class DateTimePatternSubset {
    /** The ChronoField each numeric letter prints ({@code DateTimeFormatterBuilder.FIELD_MAP}). */
    private static final Map<Character, String> FIELDS = Map.of('y', "YEAR_OF_ERA", 'u', "YEAR", 'M', "MONTH_OF_YEAR",
            'd', "DAY_OF_MONTH", 'H', "HOUR_OF_DAY", 'h', "CLOCK_HOUR_OF_AMPM", 'k', "CLOCK_HOUR_OF_DAY",
            'K', "HOUR_OF_AMPM", 'm', "MINUTE_OF_HOUR", 's', "SECOND_OF_MINUTE");
    private static final String RESERVED = "[]{}#";

    private DateTimePatternSubset() {}

    /** The printers of {@code pattern}, or {@link NotReproducible} naming what lies outside the subset. */
    static List<Map<String, Object>> printers(String pattern) {
        List<Map<String, Object>> out = new ArrayList<>();
        int pos = 0;
        while (pos < pattern.length()) {
            char c = pattern.charAt(pos);
            if (Character.isSurrogate(c)) {
                throw refused(pattern, "a character outside the Basic Multilingual Plane");
            }
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
                int start = pos;
                while (pos < pattern.length() && pattern.charAt(pos) == c) {
                    pos++;
                }
                out.add(letters(pattern, c, pos - start));
            } else if (c == '\'') {
                int end = closingQuote(pattern, pos);
                String text = pattern.substring(pos + 1, end);
                out.add(Map.of("literal", text.isEmpty() ? "'" : text.replace("''", "'")));
                pos = end + 1;
            } else if (RESERVED.indexOf(c) >= 0) {
                throw refused(pattern, "'" + c + "' (optional sections and reserved characters)");
            } else {
                out.add(Map.of("literal", String.valueOf(c)));
                pos++;
            }
        }
        return out;
    }

    /** The position of the quote closing the one at {@code open}; {@code ''} inside is a quote. */
    private static int closingQuote(String pattern, int open) {
        int pos = open + 1;
        while (pos < pattern.length()) {
            if (pattern.charAt(pos) == '\'') {
                if (pos + 1 < pattern.length() && pattern.charAt(pos + 1) == '\'') {
                    pos += 2;
                    continue;
                }
                return pos;
            }
            pos++;
        }
        throw refused(pattern, "an unclosed quote (the JDK rejects the pattern)");
    }

    private static Map<String, Object> letters(String pattern, char letter, int count) {
        String field = FIELDS.get(letter);
        if (letter == 'S') {
            if (count > 9) {
                throw refused(pattern, count + " letters 'S' (the JDK prints at most 9 fraction digits)");
            }
            return Map.of("fraction", count);
        }
        if (field == null) {
            throw refused(pattern, "the letter '" + letter + "' (only y u M d H h k K m s S are reproduced)");
        }
        if (letter == 'y' || letter == 'u') {
            if (count > 10) {
                // Java 17's NumberPrinterParser indexes its 11-entry EXCEED_POINTS by the width: a year of 11 to 18
                // letters fails every row of the stock job, and 19 or more are refused by the JDK or rare.
                throw refused(pattern, count + " letters '" + letter + "' (at most 10 are reproduced)");
            }
            return count == 2 ? Map.of("reduced", field) : value(field, count, count < 4 ? "NORMAL" : "EXCEEDS_PAD");
        }
        if (count > 2) {
            throw refused(pattern, count + " letters '" + letter + "' (" + (letter == 'M' ? "a month name, which"
                    + " follows the JVM's locale" : "the JDK takes at most 2") + ")");
        }
        return value(field, count, count == 1 ? "NORMAL" : "NOT_NEGATIVE");
    }

    private static Map<String, Object> value(String field, int width, String sign) {
        Map<String, Object> printer = new LinkedHashMap<>();
        printer.put("value", field);
        printer.put("width", width);
        printer.put("sign", sign);
        return printer;
    }

    private static NotReproducible refused(String pattern, String what) {
        return new NotReproducible("the DATE_FORMAT pattern '" + pattern + "' has " + what
                + ", outside the numeric patterns the accelerator formats exactly");
    }
}
