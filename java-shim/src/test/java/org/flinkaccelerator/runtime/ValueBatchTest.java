package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.junit.jupiter.api.Test;

/** The batch the operator sends: value bytes, then the Kafka metadata columns the descriptor names. */
class ValueBatchTest {
    private static final String DESCRIPTOR = "{\"input\": {\"fields\": ["
            + "{\"name\": \"value\", \"type\": \"VARBINARY(2147483647)\"},"
            + "{\"name\": \"partition\", \"type\": \"INT NOT NULL\"},"
            + "{\"name\": \"offset\", \"type\": \"BIGINT NOT NULL\"},"
            + "{\"name\": \"timestamp\", \"type\": \"TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL\"},"
            + "{\"name\": \"topic\", \"type\": \"VARCHAR(2147483647) NOT NULL\"},"
            + "{\"name\": \"leader-epoch\", \"type\": \"INT\"}]}}";

    @Test
    void metadataColumnsFollowTheValueInTheSidecarsLayout() {
        try (BufferAllocator allocator = new RootAllocator();
                ValueBatch batch = new ValueBatch(allocator, MetadataColumns.create(DESCRIPTOR, allocator))) {
            batch.append(GenericRowData.of("{}".getBytes(StandardCharsets.UTF_8), 1, 42L,
                    TimestampData.fromEpochMillis(1_700_000_000_123L), StringData.fromString("bids"), null));
            batch.append(GenericRowData.of(null, 0, 7L, TimestampData.fromEpochMillis(-1L),
                    StringData.fromString("ünï"), 3));
            VectorSchemaRoot root = batch.root();
            assertEquals(List.of("value", "partition", "offset", "timestamp", "topic", "leader-epoch"),
                    root.getSchema().getFields().stream().map(f -> f.getName()).toList());
            assertEquals("timestamp: Struct<millis: Int(64, true) not null, nanos: Int(32, true) not null> not null",
                    root.getVector("timestamp").getField().toString());
            assertEquals(2, root.getRowCount());
            assertEquals("{}", new String((byte[]) root.getVector("value").getObject(0), StandardCharsets.UTF_8));
            assertTrue(root.getVector("value").isNull(1));
            assertEquals(1, root.getVector("partition").getObject(0));
            assertEquals(7L, root.getVector("offset").getObject(1));
            assertEquals(Map.of("millis", 1_700_000_000_123L, "nanos", 0), root.getVector("timestamp").getObject(0));
            assertEquals(Map.of("millis", -1L, "nanos", 0), root.getVector("timestamp").getObject(1));
            assertEquals("ünï", root.getVector("topic").getObject(1).toString());
            assertTrue(root.getVector("leader-epoch").isNull(0));
            assertEquals(3, root.getVector("leader-epoch").getObject(1));

            batch.clear();
            assertEquals(0, batch.root().getRowCount());
        }
    }

    /** The batch is reused from flush to flush: a batch after a longer one holds its own values only. */
    @Test
    void aBatchAfterALargerOneHoldsOnlyItsOwnValues() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
                ValueBatch batch = new ValueBatch(allocator)) {
            byte[] longer = new byte[5000];
            Arrays.fill(longer, (byte) 'x');
            for (int i = 0; i < 1000; i++) {
                batch.append(i % 3 == 0 ? null : longer);
            }
            batch.root();
            batch.clear();
            assertEquals(0, batch.rows());
            assertEquals(0, batch.bytes());
            batch.append("a".getBytes(StandardCharsets.UTF_8));
            batch.append((byte[]) null);
            batch.append(new byte[0]);
            batch.append("bc".getBytes(StandardCharsets.UTF_8));
            VectorSchemaRoot root = batch.root();
            assertEquals(4, root.getRowCount());
            assertEquals(3, batch.bytes());
            // As the sidecar reads it: through Arrow's IPC stream.
            ByteArrayOutputStream ipc = new ByteArrayOutputStream();
            try (ArrowStreamWriter writer = new ArrowStreamWriter(root, null, ipc)) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(ipc.toByteArray()),
                    allocator)) {
                assertTrue(reader.loadNextBatch());
                VarBinaryVector read = (VarBinaryVector) reader.getVectorSchemaRoot().getVector("value");
                assertEquals(4, read.getValueCount());
                assertArrayEquals("a".getBytes(StandardCharsets.UTF_8), read.get(0));
                assertTrue(read.isNull(1));
                assertArrayEquals(new byte[0], read.get(2));
                assertArrayEquals("bc".getBytes(StandardCharsets.UTF_8), read.get(3));
            }
        }
    }

    @Test
    void headersGoAsAMapInTheOrderOfFlinksMapWithNullValues() {
        String headers = "{\"input\": {\"fields\": [{\"name\": \"value\", \"type\": \"BYTES\"},"
                + " {\"name\": \"headers\", \"type\": \"MAP<STRING, BYTES> NOT NULL\"}]}}";
        // As Flink's Kafka source makes it: one entry per header name, in its map's order.
        Map<StringData, byte[]> read = new java.util.HashMap<>();
        for (String name : List.of("zeta", "a", "", "é😀", "b")) {
            read.put(StringData.fromString(name), name.equals("b") ? null : name.getBytes(StandardCharsets.UTF_8));
        }
        GenericMapData map = new GenericMapData(read);
        try (BufferAllocator allocator = new RootAllocator();
                ValueBatch batch = new ValueBatch(allocator, MetadataColumns.create(headers, allocator))) {
            batch.append(GenericRowData.of(new byte[0], map));
            batch.append(GenericRowData.of(new byte[0], new GenericMapData(Map.of())));
            MapVector vector = (MapVector) batch.root().getVector("headers");
            List<?> entries = vector.getObject(0);
            assertEquals(read.size(), entries.size());
            for (int i = 0; i < entries.size(); i++) {
                Map<?, ?> entry = (Map<?, ?>) entries.get(i);
                assertEquals(map.keyArray().getString(i).toString(), entry.get("key").toString());
                byte[] expected = map.valueArray().isNullAt(i) ? null : map.valueArray().getBinary(i);
                assertArrayEquals(expected, (byte[]) entry.get("value"));
            }
            assertEquals(0, vector.getObject(1).size());
        }
    }

    @Test
    void aMetadataTypeTheOperatorCannotCarryIsRefusedByName() {
        String odd = "{\"input\": {\"fields\": [{\"name\": \"value\", \"type\": \"BYTES\"},"
                + " {\"name\": \"odd\", \"type\": \"ARRAY<INT>\"}]}}";
        try (BufferAllocator allocator = new RootAllocator()) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> MetadataColumns.create(odd, allocator));
            assertTrue(e.getMessage().contains("'odd'"), e.getMessage());
        }
    }
}
