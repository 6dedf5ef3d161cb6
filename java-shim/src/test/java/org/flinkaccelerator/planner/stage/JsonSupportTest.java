package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.sidecar.TestPython;
import org.flinkaccelerator.stage.JsonText;
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

    /** 1.20's json format writes plain decimals without their trailing zeros; 2.x's, which the sidecar reproduces, keeps the scale. */
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

    /**
     * The release rule for plain decimals is one rule on both sides: for each release line, both
     * directions, with and without the option, on rows with and without a DECIMAL (nested too), the
     * shim's first problem is the sidecar's {@code json.supported(..., flink_version)} answer.
     */
    @Test
    void theSidecarsCheckAppliesThePlainDecimalRuleOfEachReleaseAsTheShimDoes() throws Exception {
        List<String> rows = List.of("ROW<id INT, d DECIMAL(10, 2)>", "ROW<id INT, r ROW<a ARRAY<DECIMAL(5, 1)>>>",
                "ROW<id INT, m MAP<STRING, DECIMAL(38, 18)>>", "ROW<id INT, s STRING>",
                "ROW<d DECIMAL(10, 2), m MAP<INT, INT>>");
        List<Map<String, String>> optionSets = List.of(Map.of(),
                Map.of("json.encode.decimal-as-plain-number", "true"),
                Map.of("json.encode.decimal-as-plain-number", "false"));
        StringBuilder input = new StringBuilder();
        List<String> shim = new ArrayList<>();
        int plainRefused = 0;
        for (String version : List.of("1.20.3", "1.20.0", "2.2.1", "2.2.0")) {
            for (String rowType : rows) {
                RowType row = (RowType) LogicalTypeParser.parse(rowType, JsonSupportTest.class.getClassLoader());
                for (Map<String, String> options : optionSets) {
                    for (boolean decoding : new boolean[] {true, false}) {
                        List<String> problems = JsonSupport.problems(row, options, decoding, version);
                        shim.add(problems.isEmpty() ? "" : problems.get(0));
                        plainRefused += !problems.isEmpty() && problems.get(0).contains("without its trailing zeros")
                                ? 1 : 0;
                        input.append(JsonText.compact(List.of(row.asSerializableString(), options,
                                decoding ? "decode" : "encode", version))).append('\n');
                    }
                }
            }
        }
        // Encoding with the option on 1.20.x, each row holding a DECIMAL: 2 releases x 4 rows.
        assertEquals(8, plainRefused, shim.toString());
        assertEquals(shim, sidecarAnswers(input.toString()));
    }

    /** {@code accelerator.formats.json.supported} per line of {@code input} ("" = supported), from one Python process. */
    private static List<String> sidecarAnswers(String input) throws Exception {
        String script = """
                import json, sys
                from accelerator.formats import json as json_format
                cases = [json.loads(line) for line in sys.stdin.read().splitlines()]  # all before any output
                for row_type, options, direction, version in cases:
                    print(json.dumps(json_format.supported(row_type, options, direction, version) or ""))
                """;
        Process python = new ProcessBuilder(TestPython.path(), "-c", script).redirectErrorStream(true).start();
        try (var stdin = python.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(120, TimeUnit.SECONDS), "python did not finish");
        assertEquals(0, python.exitValue(), "python failed: " + output);
        ObjectMapper mapper = new ObjectMapper();
        List<String> answers = new ArrayList<>();
        for (String line : output.lines().toList()) {
            answers.add(mapper.readValue(line, String.class));
        }
        return answers;
    }

    @Test
    void theTreeBasedDecoderIsNotReproduced() {
        assertEquals(List.of("'json.decode.json-parser.enabled' = 'false' selects Flink's tree-based json decoder,"
                + " which the accelerator does not reproduce"),
                problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), true));
        assertEquals(List.of(), problems("ROW<id INT>", Map.of("json.decode.json-parser.enabled", "false"), false));
    }
}
