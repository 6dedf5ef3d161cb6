package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** The request region an accelerated operator starts its sidecar with. */
class SidecarSettingsTest {
    private static final long BATCH_BYTES = 4L << 20;
    private static final int BATCH_ROWS = 16_384;

    /**
     * A batch the operator sends because its message bytes reached accelerator.batch.max-bytes
     * (its last message takes it past the limit) is written without growing the region: else
     * every full batch remaps the region and faults its pages in again.
     */
    @Test
    void aBatchThatReachedItsByteLimitFitsTheRequestRegion() throws IOException {
        long initial = SidecarSettings.requestRegionBytes(BATCH_BYTES, BATCH_ROWS);
        // Nexmark-sized messages: the byte limit is reached before the row limit ...
        assertFits(initial, (int) (BATCH_BYTES / 336) + 1, 336);
        // ... and the row limit with messages that reach the byte limit at the same time.
        assertFits(initial, BATCH_ROWS, (int) (BATCH_BYTES / BATCH_ROWS));
    }

    @Test
    void neverBelowTheDefaultRegion() {
        assertEquals(SidecarSettings.DEFAULT_INITIAL_REGION_BYTES, SidecarSettings.requestRegionBytes(1024, 10));
    }

    private static void assertFits(long initial, int rows, int valueBytes) throws IOException {
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, rows, valueBytes);
                SharedRegion region = SharedRegion.create("test", initial)) {
            assertTrue((long) rows * valueBytes >= BATCH_BYTES, "not a full batch");
            long before = region.size();
            region.write(1, batch);
            assertEquals(before, region.size(), rows + " messages of " + valueBytes + " bytes grew the region");
        }
    }
}
