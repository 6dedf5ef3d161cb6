package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
