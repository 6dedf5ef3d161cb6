package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.flinkaccelerator.stage.JsonText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The printers the shim reads from a DATE_FORMAT pattern are the ones the JDK's
 * {@code DateTimeFormatter.ofPattern} builds (compared through the formatters' toString(), which
 * lists each printer with its field, widths and sign style), and every pattern outside the subset,
 * among them all the JDK rejects, stays stock with its reason.
 */
class DateTimePatternSubsetTest {
    @Test
    void nexmarkQ17sDayIsTheYearOfEraThenTwoDigitMonthAndDay() {
        assertEquals("[{\"value\":\"YEAR_OF_ERA\",\"width\":4,\"sign\":\"EXCEEDS_PAD\"},{\"literal\":\"-\"},"
                + "{\"value\":\"MONTH_OF_YEAR\",\"width\":2,\"sign\":\"NOT_NEGATIVE\"},{\"literal\":\"-\"},"
                + "{\"value\":\"DAY_OF_MONTH\",\"width\":2,\"sign\":\"NOT_NEGATIVE\"}]",
                JsonText.compact(DateTimePatternSubset.printers("yyyy-MM-dd")));
    }

    @Test
    void quotedTextAndDoubledQuotesAreLiterals() {
        assertEquals(List.of(Map.of("literal", "'"), Map.of("literal", " "), Map.of("literal", "at o'clock"),
                Map.of("literal", "é")), DateTimePatternSubset.printers("'' 'at o''clock'é"));
    }

    /** Random patterns over the letters, quotes and brackets: accepted exactly when their printers are the JDK's. */
    @Test
    void everyAcceptedPatternHasTheJdksPrintersAndEveryPatternTheJdkRejectsIsRefused() {
        String alphabet = "yuMdHhkKmsSyyMMdDEaGwzVXn'-: []{}#";
        Random random = new Random(17);
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder pattern = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                char c = alphabet.charAt(random.nextInt(alphabet.length()));
                pattern.append(String.valueOf(c).repeat(1 + (Character.isLetter(c) ? random.nextInt(12) : 0)));
            }
            String text = pattern.toString();
            String jdk;
            try {
                jdk = DateTimeFormatter.ofPattern(text).toString();
            } catch (IllegalArgumentException e) {
                assertThrows(NotReproducible.class, () -> DateTimePatternSubset.printers(text), text);
                continue;
            }
            List<Map<String, Object>> printers;
            try {
                printers = DateTimePatternSubset.printers(text);
            } catch (NotReproducible e) {
                continue;
            }
            accepted++;
            assertEquals(jdk, formatterOf(printers).toString(), text);
        }
        assertTrue(accepted > 1000, "only " + accepted + " accepted patterns: the test must reach the subset");
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
            "dd MMM yyyy;        3 letters 'M' (a month name, which follows the JVM's locale)",
            "EEE;                the letter 'E' (only y u M d H h k K m s S are reproduced)",
            "hh a;               the letter 'a' (only y u M d H h k K m s S are reproduced)",
            "yyyy[-MM];          '[' (optional sections and reserved characters)",
            "yyyyyyyyyyy;        11 letters 'y' (at most 10 are reproduced)",
            "SSSSSSSSSS;         10 letters 'S' (the JDK prints at most 9 fraction digits)",
            "ddd;                3 letters 'd' (the JDK takes at most 2)",
            "HH'open;            an unclosed quote (the JDK rejects the pattern)"})
    void patternsOutsideTheSubsetStayStockSayingWhy(String pattern, String what) {
        NotReproducible e = assertThrows(NotReproducible.class, () -> DateTimePatternSubset.printers(pattern));
        assertEquals("the DATE_FORMAT pattern '" + pattern + "' has " + what
                + ", outside the numeric patterns the accelerator formats exactly", e.getMessage());
    }

    @Test
    void anElevenLetterYearFailsInTheJdkItself() {
        // Why the subset stops at 10: Java 17 formats no year of 11 to 18 letters (stock Flink fails the row).
        DateTimeFormatter eleven = DateTimeFormatter.ofPattern("yyyyyyyyyyy");
        assertThrows(RuntimeException.class, () -> eleven.format(LocalDate.of(2024, 1, 1)));
    }

    /** A JDK formatter built from the printers as the builder's own calls. */
    private static DateTimeFormatter formatterOf(List<Map<String, Object>> printers) {
        DateTimeFormatterBuilder builder = new DateTimeFormatterBuilder();
        for (Map<String, Object> p : printers) {
            if (p.containsKey("literal")) {
                builder.appendLiteral((String) p.get("literal"));
            } else if (p.containsKey("fraction")) {
                int n = (Integer) p.get("fraction");
                builder.appendFraction(ChronoField.NANO_OF_SECOND, n, n, false);
            } else if (p.containsKey("reduced")) {
                builder.appendValueReduced(ChronoField.valueOf((String) p.get("reduced")), 2, 2, LocalDate.of(2000, 1, 1));
            } else {
                ChronoField field = ChronoField.valueOf((String) p.get("value"));
                int width = (Integer) p.get("width");
                SignStyle sign = SignStyle.valueOf((String) p.get("sign"));
                if (sign == SignStyle.NOT_NEGATIVE) {
                    builder.appendValue(field, width);
                } else {
                    builder.appendValue(field, width, 19, sign);
                }
            }
        }
        return builder.toFormatter();
    }
}
