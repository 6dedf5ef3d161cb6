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

    @Test
    void theTreeBasedDecoderIsNotReproduced() {
        assertEquals(List.of("'json.decode.json-parser.enabled' = 'false' selects Flink's tree-based json decoder,"
                + " which the accelerator does not reproduce"),
                problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), true));
        assertEquals(List.of(), problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), false));
    }
}
