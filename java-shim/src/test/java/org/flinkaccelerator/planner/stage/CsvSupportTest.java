package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/** The csv tables the shim lets the sidecar run, decoding and encoding, by Flink type text and options. */
class CsvSupportTest {
    private static final String SCALARS = "ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE,"
            + " m DECIMAL(38, 18), c CHAR(2), v STRING>";

    /** On Flink 2.2.1, whichever line the tests are built for (1.20's DECIMAL encoding is tested on its own). */
    private static List<String> problems(String rowType, Map<String, String> options, boolean decoding) {
        return problems(rowType, options, decoding, "2.2.1");
    }

    private static List<String> problems(String rowType, Map<String, String> options, boolean decoding,
            String flinkVersion) {
        return CsvSupport.problems((RowType) LogicalTypeParser.parse(rowType, CsvSupportTest.class.getClassLoader()),
                options, decoding, flinkVersion);
    }

    @Test
    void decimalsStayStockWhenEncodingOnFlink120() {
        String row = "ROW<m DECIMAL(38, 18), a ARRAY<DECIMAL(10, 2)>, i INT>";
        assertEquals(List.of("m: Flink 1.20.3's csv format writes DECIMAL without its trailing zeros, which the"
                + " accelerator does not reproduce (it writes 2.x's, with the column's scale)",
                "a: Flink 1.20.3's csv format writes DECIMAL without its trailing zeros, which the accelerator does"
                        + " not reproduce (it writes 2.x's, with the column's scale)"),
                problems(row, Map.of(), false, "1.20.3"));
        assertEquals(List.of(), problems(row, Map.of(), true, "1.20.3"));
        assertEquals(List.of(), problems(row, Map.of(), false, "2.3.0"));
    }

    @Test
    void scalarsAndTheReproducedOptionsAreAccepted() {
        Map<String, String> options = Map.of("csv.field-delimiter", "\\t", "csv.null-literal", "\\N",
                "csv.quote-character", "'", "csv.ignore-parse-errors", "true", "csv.array-element-delimiter", "|");
        assertEquals(List.of(), problems(SCALARS, options, true));
        assertEquals(List.of(), problems(SCALARS + "", options, false));
        assertEquals(List.of(), problems("ROW<d DATE, t TIME(0), ts TIMESTAMP(9), z TIMESTAMP_LTZ(6), y BYTES>",
                Map.of("csv.escape-character", "\\", "csv.write-bigdecimal-in-scientific-notation", "true"), false));
        assertEquals(List.of(), problems(SCALARS, Map.of("csv.disable-quote-character", "true"), false));
    }

    @Test
    void datesTimesTimestampsBytesAndArraysOfScalarsAreAcceptedBothWays() {
        String row = "ROW<d DATE, t TIME(3), t0 TIME(0), ts TIMESTAMP(9), z TIMESTAMP_LTZ(3), y BYTES, x BINARY(3),"
                + " a ARRAY<STRING>, ai ARRAY<INT>, ats ARRAY<TIMESTAMP(3)>, ad ARRAY<DATE>>";
        Map<String, String> options = Map.of("csv.array-element-delimiter", "|", "csv.null-literal", "N");
        assertEquals(List.of(), problems(row, options, true));
        assertEquals(List.of(), problems(row, options, false));
    }

    @Test
    void whatTheSidecarDoesNotReproduceIsRefusedWithItsReason() {
        assertTrue(problems("ROW<t TIME(4)>", Map.of(), true).get(0).contains("precision above 3"));
        assertTrue(problems("ROW<a ARRAY<TIME(6)>>", Map.of(), true).get(0).contains("precision above 3"));
        assertTrue(problems("ROW<a ARRAY<ARRAY<INT>>>", Map.of(), false).get(0).contains("when encoding"));
        assertTrue(problems("ROW<a ARRAY<ROW<x INT>>>", Map.of(), true).get(0).contains("when decoding"));
        assertTrue(problems("ROW<r ROW<x INT>>", Map.of(), true).get(0).contains("when decoding"));
        assertTrue(problems("ROW<m MAP<INT, INT>>", Map.of(), false).get(0).contains("when encoding"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.array-element-delimiter", "x"), false).get(0)
                .contains("array-element-delimiter"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.allow-comments", "true"), true).get(0).contains("allow-comments"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.disable-quote-character", "true"), true).get(0)
                .contains("when decoding"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.escape-character", "\\"), true).get(0).contains("when decoding"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.escape-character", "^"), false).get(0).contains("backslash"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.field-delimiter", "x"), false).get(0).contains("field-delimiter"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.field-delimiter", ";;"), false).get(0).contains("field-delimiter"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.quote-character", ","), false).get(0).contains("the same"));
        assertTrue(problems("ROW<a INT>", Map.of("csv.unknown", "1"), false).get(0).contains("'csv.unknown'"));
    }
}
