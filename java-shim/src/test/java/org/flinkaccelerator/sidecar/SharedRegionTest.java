package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SharedRegionTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void allBuffersReleased() {
        allocator.close();
    }

    @Test
    void batchOfEveryTypeComesBackEqual() throws IOException {
        try (SharedRegion writer = SharedRegion.create("test", 0);
                SharedRegion reader = SharedRegion.attach(writer.path());
                VectorSchemaRoot sent = Batches.everyType(allocator, 100)) {
            writer.write(1, sent);
            try (VectorSchemaRoot received = reader.read(1, allocator).get(0)) {
                assertTrue(sent.equals(received), "the batch changed on its way through the region");
            }
        }
    }

    @Test
    void aMissingSharedMemoryDirectoryIsAnErrorThatSaysWhatToDo(@TempDir Path tmp) {
        Path missing = tmp.resolve("no-shm-here");
        IOException error = assertThrows(IOException.class, () -> SharedRegion.create(missing, "test", 0));
        assertTrue(error.getMessage().startsWith("Cannot create a shared-memory file in " + missing), error.getMessage());
        assertTrue(error.getMessage().contains("accelerator.enabled: false"), error.getMessage());
    }

    @Test
    void regionIsPrivateToItsUserAndGoneAfterClose() throws IOException {
        SharedRegion region = SharedRegion.create("test", 0);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(region.path())));
        assertTrue(region.path().getFileName().toString().matches(
                "flink-accelerator-test-" + ProcessHandle.current().pid() + "-[0-9a-f]{32}"));
        region.close();
        assertFalse(Files.exists(region.path()));
        region.close();
    }

    @Test
    void writerGrowsTheRegionAndTheReaderFollows() throws IOException {
        try (SharedRegion writer = SharedRegion.create("test", 0);
                SharedRegion reader = SharedRegion.attach(writer.path());
                VectorSchemaRoot small = Batches.kafkaRecords(allocator, 10, 20);
                VectorSchemaRoot large = Batches.kafkaRecords(allocator, 20_000, 200)) {
            long before = writer.size();
            writer.write(1, small);
            reader.read(1, allocator).forEach(VectorSchemaRoot::close);
            writer.write(2, large);
            assertTrue(writer.size() > before && writer.size() >= Files.size(writer.path()));
            try (VectorSchemaRoot received = reader.read(2, allocator).get(0)) {
                assertTrue(large.equals(received));
            }
        }
    }

    /**
     * One large message must not keep its memory for the region's life: the region shrinks back
     * to its initial size once a batch fits it, the reader follows, and it grows again when needed.
     */
    @Test
    void regionShrinksBackOnceABatchFitsItsInitialSize() throws IOException {
        try (SharedRegion writer = SharedRegion.create("test", 1 << 20);
                SharedRegion reader = SharedRegion.attach(writer.path());
                VectorSchemaRoot small = Batches.kafkaRecords(allocator, 10, 20);
                VectorSchemaRoot large = Batches.kafkaRecords(allocator, 20_000, 200)) {
            long initial = writer.size();
            writer.write(1, large);
            reader.read(1, allocator).forEach(VectorSchemaRoot::close);
            assertTrue(writer.size() > initial);
            writer.write(2, small);
            assertEquals(initial, writer.size());
            assertEquals(initial, Files.size(writer.path()));
            try (VectorSchemaRoot received = reader.read(2, allocator).get(0)) {
                assertTrue(small.equals(received));
            }
            assertEquals(initial, reader.size());
            writer.write(3, large);
            try (VectorSchemaRoot received = reader.read(3, allocator).get(0)) {
                assertTrue(large.equals(received));
            }
            assertEquals(writer.size(), reader.size());
        }
    }

    @Test
    void readerRefusesAnythingButTheCommittedSequence() throws IOException {
        try (SharedRegion writer = SharedRegion.create("test", 0);
                SharedRegion reader = SharedRegion.attach(writer.path());
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 10, 20)) {
            IOException nothing = assertThrows(IOException.class, () -> reader.read(1, allocator));
            assertTrue(nothing.getMessage().contains("nothing is committed"), nothing.getMessage());
            writer.write(1, batch);
            IOException stale = assertThrows(IOException.class, () -> reader.read(2, allocator));
            assertTrue(stale.getMessage().contains("batch 1 is committed"), stale.getMessage());
        }
    }

    @Test
    void headerIsTheDocumentedLayout() throws IOException {
        try (SharedRegion writer = SharedRegion.create("test", 0);
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 3, 5)) {
            long length = writer.write(7, batch);
            ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(writer.path()), 0, 64)
                    .order(ByteOrder.LITTLE_ENDIAN);
            byte[] magic = new byte[8];
            header.get(magic);
            assertEquals("FLKACSHM", new String(magic, java.nio.charset.StandardCharsets.US_ASCII));
            assertEquals(SidecarControl.PROTOCOL_VERSION, header.getInt(8));
            assertEquals(64, header.getInt(12));
            assertEquals(Files.size(writer.path()), header.getLong(16));
            assertEquals(7, header.getLong(24));
            assertEquals(length, header.getLong(32));
        }
    }
}
