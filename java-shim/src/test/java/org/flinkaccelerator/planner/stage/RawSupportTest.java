package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/** The raw tables the shim lets the sidecar run, by Flink type text and table options. */
class RawSupportTest {
    private static List<String> problems(String rowType, Map<String, String> options) {
        return problems(rowType, options, true);
    }

    private static List<String> problems(String rowType, Map<String, String> options, boolean decoding) {
        return RawSupport.problems((RowType) LogicalTypeParser.parse(rowType, RawSupportTest.class.getClassLoader()),
                options, decoding);
    }

    @Test
    void singleByteCharsetsBothWaysAndUtf16WhenEncodingOnly() {
        for (String charset : List.of("ISO-8859-1", "latin1", "US-ASCII")) {
            assertEquals(List.of(), problems("ROW<v STRING>", Map.of("raw.charset", charset)), charset);
            assertEquals(List.of(), problems("ROW<v STRING>", Map.of("raw.charset", charset), false), charset);
        }
        assertEquals(List.of(), problems("ROW<v STRING>", Map.of("raw.charset", "UTF-16LE"), false));
        assertTrue(problems("ROW<v STRING>", Map.of("raw.charset", "UTF-16BE")).get(0).contains("when decoding"));
    }

    @Test
    void oneColumnOfBytesTextOrAFixedWidthNumberIsAccepted() {
        for (String type : List.of("BYTES", "BINARY(4)", "STRING", "CHAR(3)", "BOOLEAN", "TINYINT", "SMALLINT", "INT",
                "BIGINT", "FLOAT", "DOUBLE")) {
            assertEquals(List.of(), problems("ROW<v " + type + ">", Map.of()), type);
        }
        assertEquals(List.of(), problems("ROW<v INT>", Map.of("raw.endianness", "Little-Endian", "raw.charset", "utf8")));
    }

    @Test
    void whatTheSidecarDoesNotReproduceIsRefusedWithItsReason() {
        assertTrue(problems("ROW<v STRING>", Map.of("raw.charset", "windows-1252")).get(0).contains("only UTF-8"));
        assertTrue(problems("ROW<v INT>", Map.of("raw.endianness", "middle")).get(0).contains("byte order"));
        assertTrue(problems("ROW<v DECIMAL(10, 2)>", Map.of()).get(0).contains("not accelerated"));
        assertTrue(problems("ROW<v TIMESTAMP(3)>", Map.of()).get(0).contains("not accelerated"));
        assertTrue(problems("ROW<a INT, b INT>", Map.of()).get(0).contains("exactly one column"));
        assertTrue(problems("ROW<v INT>", Map.of("raw.line-delimiter", "\n")).get(0).contains("'raw.line-delimiter'"));
    }
}
