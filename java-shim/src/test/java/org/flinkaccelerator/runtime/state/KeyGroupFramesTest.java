package org.flinkaccelerator.runtime.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * Key groups in raw keyed state as one frame (state format {@code version}, what jars before
 * snapshot pieces wrote and read) and as a run of piece frames ended by an empty one (state format
 * {@code 1000 + version}): both read back in order, each piece but the last saying the key group
 * goes on, and a jar refuses formats it cannot read.
 */
class KeyGroupFramesTest {
    private static final String FINGERPRINT = "ab".repeat(32);
    private static final VersionedStateFormat VERSIONED = new VersionedStateFormat(new byte[] {'T', 'E', 'S', 'T'}, 3,
            "test-format", "test operator", "accelerator.test.enabled", "keys", IllegalStateException::new);
    private static final KeyGroupFrames FRAMES = VERSIONED.format().frames();

    private static VectorSchemaRoot values(BufferAllocator allocator, long... values) {
        BigIntVector vector = new BigIntVector("v", allocator);
        vector.allocateNew(values.length);
        for (int i = 0; i < values.length; i++) {
            vector.set(i, values[i]);
        }
        vector.setValueCount(values.length);
        return VectorSchemaRoot.of(vector);
    }

    /** The key group's values, each frame's followed by -1 when the key group's values go on in a next frame. */
    private static List<Long> read(ByteArrayInputStream in, int keyGroup, BufferAllocator allocator)
            throws Exception {
        List<Long> out = new ArrayList<>();
        long[] values = {0};
        long count = FRAMES.read(in, keyGroup, FINGERPRINT, allocator, (rows, more) -> {
            BigIntVector vector = (BigIntVector) rows.getVector("v");
            for (int i = 0; i < rows.getRowCount(); i++) {
                out.add(vector.get(i));
            }
            values[0] += rows.getRowCount();
            if (more) {
                out.add(-1L);
            }
        });
        assertEquals(values[0], count);
        return out;
    }

    @Test
    void keyGroupsInOneFrameAndInPiecesReadBackInOrder() throws Exception {
        try (BufferAllocator allocator = new RootAllocator()) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (VectorSchemaRoot first = values(allocator, 1, 2); VectorSchemaRoot second = values(allocator, 3);
                    VectorSchemaRoot whole = values(allocator, 4, 5, 6)) {
                FRAMES.writePiece(out, FINGERPRINT, first);
                FRAMES.writePiece(out, FINGERPRINT, second);
                FRAMES.endPieces(out, FINGERPRINT);
                FRAMES.write(out, FINGERPRINT, whole);
                FRAMES.write(out, FINGERPRINT, null);
            }
            byte[] bytes = out.toByteArray();
            assertEquals(3, ByteBuffer.wrap(bytes, 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt() - 1000,
                    "a key group in pieces has state format 1000 + version");
            ByteArrayInputStream in = new ByteArrayInputStream(bytes);
            assertEquals(List.of(1L, 2L, -1L, 3L), read(in, 0, allocator), "the first piece's rows go on, the last's do not");
            assertEquals(List.of(4L, 5L, 6L), read(in, 1, allocator));
            assertEquals(List.of(), read(in, 2, allocator));
            assertEquals(0, in.available(), "every frame read, none beyond");

            // A run of piece frames must end with an empty one of its own format.
            ByteArrayOutputStream mixed = new ByteArrayOutputStream();
            try (VectorSchemaRoot first = values(allocator, 1)) {
                FRAMES.writePiece(mixed, FINGERPRINT, first);
                FRAMES.write(mixed, FINGERPRINT, null);
            }
            String message = assertThrows(IllegalStateException.class,
                    () -> read(new ByteArrayInputStream(mixed.toByteArray()), 5, allocator)).getMessage();
            assertTrue(message.contains("corrupt accelerated test operator state in key group 5: its frames have"
                    + " state formats 1003 and 3"), message);
        }
    }

    @Test
    void markersOfBothLayoutsAreReadAndNewerOnesRefused() {
        VERSIONED.checkMarkers(List.of("3:" + FINGERPRINT, "1003:" + FINGERPRINT), FINGERPRINT);
        assertEquals("1003:" + FINGERPRINT, VERSIONED.format().marker(FINGERPRINT, true));
        assertEquals("3:" + FINGERPRINT, VERSIONED.format().marker(FINGERPRINT, false));
        String newerLayout = assertThrows(IllegalStateException.class,
                () -> VERSIONED.checkMarkers(List.of("2003:" + FINGERPRINT), FINGERPRINT)).getMessage();
        assertTrue(newerLayout.contains("written by a newer flink-accelerator (state format 2003); this jar reads"
                + " formats up to 1003"), newerLayout);
        String newerRows = assertThrows(IllegalStateException.class,
                () -> VERSIONED.checkMarkers(List.of("1004:" + FINGERPRINT), FINGERPRINT)).getMessage();
        assertTrue(newerRows.contains("written by a newer flink-accelerator (state format 1004); this jar reads"
                + " formats up to 1003"), newerRows);
    }
}
