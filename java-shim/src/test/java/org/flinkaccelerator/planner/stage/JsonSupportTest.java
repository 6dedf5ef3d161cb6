package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/** The json tables the shim lets the sidecar run: what accelerator.formats.json.supported refuses, it refuses. */
class JsonSupportTest {
    private static List<String> problems(String rowType, Map<String, String> options, boolean decoding) {
        return JsonSupport.problems((RowType) LogicalTypeParser.parse(rowType, JsonSupportTest.class.getClassLoader()),
                options, decoding);
    }

    @Test
    void scalarsNestedRowsAndArraysAreAcceptedBothWays() {
        String row = "ROW<b BOOLEAN, l BIGINT, m DECIMAL(38, 18), v STRING, t TIMESTAMP(3), r ROW<x INT, a ARRAY<STRING>>>";
        assertEquals(List.of(), problems(row, Map.of("json.ignore-parse-errors", "true"), true));
        assertEquals(List.of(), problems(row, Map.of(), false));
    }

    @Test
    void bytesAndStringKeyedMapsAreAcceptedBothWays() {
        String row = "ROW<id INT, r ROW<b BYTES>, m MAP<STRING, INT>, a ARRAY<MAP<STRING, BINARY(2)>>>";
        assertEquals(List.of(), problems(row, Map.of(), true));
        assertEquals(List.of(), problems(row, Map.of(), false));
        assertEquals(List.of("m: Flink's json format only has string map keys"),
                problems("ROW<m MAP<INT, INT>>", Map.of(), true));
        assertEquals(List.of("m: Flink's json format only has string map keys"),
                problems("ROW<m MAP<INT, INT>>", Map.of(), false));
    }

    /** Flink 2.3's json format keeps TIME's milliseconds both ways; 2.2's and 1.20's, which the sidecar reproduces, drop them. */
    @Test
    void plainDecimalsAreEncodedStockOn120Only() {
        RowType row = (RowType) LogicalTypeParser.parse("ROW<id INT, d DECIMAL(10, 2), a ARRAY<ROW<x DECIMAL(5, 1)>>>",
                JsonSupportTest.class.getClassLoader());
        Map<String, String> plain = Map.of("json.encode.decimal-as-plain-number", "true");
        List<String> problems = JsonSupport.problems(row, plain, false, "1.20.3");
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("d: Flink 1.20.3's json format under 'json.encode.decimal-as-plain-number'"
                + " writes DECIMAL without its trailing zeros"), problems.toString());
        assertTrue(problems.get(1).startsWith("a: "), problems.toString());
        assertEquals(List.of(), JsonSupport.problems(row, plain, true, "1.20.3"), "decoding reads either");
        assertEquals(List.of(), JsonSupport.problems(row, Map.of(), false, "1.20.3"), "the default writes E-notation alike");
        assertEquals(List.of(), JsonSupport.problems(row, plain, false, "2.2.1"));
    }

    @Test
    void timeColumnsStayStockOnAReleaseWhoseJsonKeepsTheFraction() {
        RowType row = (RowType) LogicalTypeParser.parse("ROW<id INT, t TIME(3), r ROW<a ARRAY<TIME(0)>>>",
                JsonSupportTest.class.getClassLoader());
        for (boolean decoding : new boolean[] {true, false}) {
            assertEquals(List.of(), JsonSupport.problems(row, Map.of(), decoding, "2.2.0"));
            assertEquals(List.of(), JsonSupport.problems(row, Map.of(), decoding, "2.2.1"));
            assertEquals(List.of(), JsonSupport.problems(row, Map.of(), decoding, "1.20.3"));
            assertEquals(List.of("t: Flink 2.3.0's json format keeps TIME's fraction of a second, which the accelerator"
                    + " does not reproduce yet (it reproduces 2.2's, which drops it)",
                    "r.a[]: Flink 2.3.0's json format keeps TIME's fraction of a second, which the accelerator"
                    + " does not reproduce yet (it reproduces 2.2's, which drops it)"),
                    JsonSupport.problems(row, Map.of(), decoding, "2.3.0"));
        }
    }

    @Test
    void theTreeBasedDecoderIsNotReproduced() {
        assertEquals(List.of("'json.decode.json-parser.enabled' = 'false' selects Flink's tree-based json decoder,"
                + " which the accelerator does not reproduce"),
                problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), true));
        assertEquals(List.of(), problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), false));
    }
}
