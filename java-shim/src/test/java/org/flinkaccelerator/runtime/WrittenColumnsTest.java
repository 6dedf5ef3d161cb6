package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;
import org.junit.jupiter.api.Test;

/** The written Kafka metadata of a sidecar answer, as the row Flink's Kafka sink gets. */
class WrittenColumnsTest {
    private static final String DESCRIPTOR = "{\"output\": {\"fields\": ["
            + "{\"name\": \"value\", \"type\": \"VARBINARY(2147483647)\"},"
            + "{\"name\": \"key\", \"type\": \"VARBINARY(2147483647)\"},"
            + "{\"name\": \"headers\", \"type\": \"MAP<VARCHAR(2147483647), VARBINARY(2147483647)>\"},"
            + "{\"name\": \"timestamp\", \"type\": \"TIMESTAMP(3) WITH LOCAL TIME ZONE\"}]}}";

    @Test
    void headersAndTimestampComeBackInOrderWithNullsAsTheSinkWritesThem() {
        RowType written = WrittenColumns.row(DESCRIPTOR);
        assertEquals("ROW<`value` BYTES, `key` BYTES, `headers` MAP<STRING, BYTES>, `timestamp` TIMESTAMP_LTZ(3)>",
                written.asSummaryString());
        Map<StringData, byte[]> headers = new LinkedHashMap<>();
        headers.put(StringData.fromString("z"), "1".getBytes(StandardCharsets.UTF_8));
        headers.put(StringData.fromString("n"), null);
        headers.put(StringData.fromString(""), new byte[0]);
        headers.put(StringData.fromString("a"), "é😀".getBytes(StandardCharsets.UTF_8));
        TimestampData at = TimestampData.fromEpochMillis(-1_234L, 999_999);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = RowDataArrowWriter.createRoot(written, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(written, root);
            writer.write(GenericRowData.of(new byte[] {1}, null, new GenericMapData(headers), at));
            writer.write(GenericRowData.of(new byte[] {2}, new byte[] {3}, null, null));
            writer.finish();

            WrittenColumns.Reader reader = new WrittenColumns.Reader(written);
            var view = reader.view(root);
            GenericRowData out = new GenericRowData(4);
            reader.copy(view, 0, out);
            MapData map = out.getMap(2);
            assertEquals(headers.size(), map.size());
            int i = 0;
            for (Map.Entry<StringData, byte[]> e : headers.entrySet()) {
                assertEquals(e.getKey().toString(), map.keyArray().getString(i).toString());
                if (e.getValue() == null) {
                    assertTrue(map.valueArray().isNullAt(i));
                } else {
                    assertArrayEquals(e.getValue(), map.valueArray().getBinary(i));
                }
                i++;
            }
            assertEquals(at, out.getTimestamp(3, 3), "the exact pair; Flink's sink writes its getMillisecond()");
            reader.copy(view, 1, out);
            assertNull(out.getField(2));
            assertNull(out.getField(3));
        }
    }

    @Test
    void anAnswerWithoutAWrittenColumnIsRefusedByName() {
        RowType written = WrittenColumns.row(DESCRIPTOR);
        RowType valueOnly = WrittenColumns.row("{\"output\": {\"fields\": []}}");
        assertEquals("ROW<`value` BYTES>", valueOnly.asSummaryString());
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot root = RowDataArrowWriter.createRoot(valueOnly, allocator)) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> new WrittenColumns.Reader(written).view(root));
            assertTrue(e.getMessage().contains("'headers'"), e.getMessage());
        }
    }
}
