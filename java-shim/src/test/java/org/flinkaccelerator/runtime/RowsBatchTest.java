package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/** What a batch of a stock operator's rows counts against accelerator.batch.max-bytes: its strings and binaries. */
class RowsBatchTest {
    private static final RowType ROW = (RowType) LogicalTypeParser.parse(
            "ROW<id BIGINT, name STRING, tags ARRAY<STRING>>", RowsBatchTest.class.getClassLoader());

    @Test
    void bytesGrowWithTheValuesItHoldsNestedOnesIncludedAndStartAgainAfterClear() {
        try (BufferAllocator allocator = new RootAllocator();
                RowsBatch batch = new RowsBatch(ROW, new BitSet(), allocator)) {
            assertEquals(0, batch.bytes());
            batch.append(GenericRowData.of(1L, StringData.fromString("x".repeat(1000)), null));
            assertEquals(1000, batch.bytes(), "the string's bytes (the long is bounded by the row count)");
            batch.append(GenericRowData.of(2L, null, new GenericArrayData(
                    new Object[] {StringData.fromString("y".repeat(5000))})));
            assertEquals(6000, batch.bytes(), "a trailing null hides nothing; a string in an array counts");
            batch.clear();
            assertEquals(0, batch.bytes());
        }
    }
}
