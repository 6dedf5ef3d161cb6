package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/** The avro tables the shim lets the sidecar run, by Flink type text and table options. */
class AvroSupportTest {
    private static final Map<String, String> MODERN = Map.of("avro.timestamp_mapping.legacy", "false");

    private static List<String> problems(String rowType, Map<String, String> options, boolean decoding) {
        return AvroSupport.problems((RowType) LogicalTypeParser.parse(rowType, AvroSupportTest.class.getClassLoader()),
                options, decoding);
    }

    private static List<String> problems(String rowType, Map<String, String> options) {
        List<String> decoding = problems(rowType, options, true);
        assertEquals(decoding, problems(rowType, options, false), "both directions take the same types here");
        return decoding;
    }

    @Test
    void localTimeZoneTimestampsAreAcceptedWithoutTheLegacyMappingOutsideCollections() {
        assertEquals(List.of(), problems("ROW<a TIMESTAMP_LTZ(0), b TIMESTAMP_LTZ(3), c TIMESTAMP_LTZ(6) NOT NULL>",
                MODERN));
        assertEquals(List.of(), problems("ROW<r ROW<l TIMESTAMP_LTZ(3)>>", MODERN, false));
        assertTrue(problems("ROW<r ROW<l TIMESTAMP_LTZ(3)>>", MODERN, true).get(0).contains("nested row"));
        assertTrue(problems("ROW<t TIMESTAMP_LTZ(3)>", Map.of()).get(0).contains("legacy"));
        assertTrue(problems("ROW<a ARRAY<TIMESTAMP_LTZ(3)>>", MODERN).get(0).contains("ARRAY or MAP"));
        assertTrue(problems("ROW<m MAP<STRING, TIMESTAMP_LTZ(3)>>", MODERN).get(0).contains("ARRAY or MAP"));
        assertTrue(problems("ROW<t TIMESTAMP_LTZ(9)>", MODERN).get(0).contains("TIMESTAMP_LTZ(6)"));
    }

    @Test
    void scalarsNestedRowsArraysAndStringMapsAreAccepted() {
        assertEquals(List.of(), problems("ROW<a BOOLEAN, b TINYINT, c DECIMAL(10, 2), d VARBINARY(5), e DATE, f TIME(3),"
                + " g TIMESTAMP(3), r ROW<x INT, y ROW<z STRING>>, l ARRAY<ROW<q TIMESTAMP(3)>>, m MAP<STRING, INT>>",
                Map.of()));
        assertEquals(List.of(), problems("ROW<t TIMESTAMP(6)>", Map.of("avro.timestamp_mapping.legacy", "false")));
        assertEquals(List.of(), problems("ROW<a INT>", Map.of("avro.encoding", "BINARY")));
    }

    @Test
    void whatFlinkAvroDoesNotHoldExactlyIsRefusedWithItsReason() {
        assertTrue(problems("ROW<t TIMESTAMP(6)>", Map.of()).get(0).contains("TIMESTAMP(3)"));
        assertTrue(problems("ROW<l ARRAY<TIMESTAMP(6)>>", Map.of("avro.timestamp_mapping.legacy", "false"))
                .get(0).contains("TIMESTAMP(3)"), "inside arrays Flink always uses the legacy mapping");
        assertTrue(problems("ROW<t TIME(6)>", Map.of()).get(0).contains("milliseconds"));
        assertTrue(problems("ROW<m MAP<INT, STRING>>", Map.of()).get(0).contains("string keys"));
        assertTrue(problems("ROW<`a-b` INT>", Map.of()).get(0).contains("not an Avro name"));
        assertTrue(problems("ROW<a ROW<b ROW<c INT>>, a_b ROW<d INT>>", Map.of()).get(0)
                .contains("record name 'record_a_b'"));
        assertTrue(problems("ROW<a INT>", Map.of("avro.encoding", "json")).get(0).contains("only binary"));
        assertTrue(problems("ROW<a INT>", Map.of("avro.codec", "snappy")).get(0).contains("'avro.codec'"));
    }
}
