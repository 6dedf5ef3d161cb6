package org.flinkaccelerator.runtime.arrow;

import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRoundTrip;
import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRoundTripThroughIpc;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Random row types (ARRAY, MAP and ROW nested up to three deep, random nullability) and thousands
 * of random rows of them, written to Arrow and read back equal; a fixed seed keeps failures
 * reproducible, and each failure message names the seed's row type and the row.
 */
class ArrowRandomRoundTripTest {
    private static final long SEED = 20_261_202L;
    private static final int TYPES = 40;
    private static final int ROWS_PER_TYPE = 150;

    @Test
    void randomNestedRowsRoundTrip() {
        RandomFlinkData data = new RandomFlinkData(SEED);
        try (BufferAllocator allocator = new RootAllocator()) {
            for (int t = 0; t < TYPES; t++) {
                RowType type = data.rowType(8, 3);
                List<GenericRowData> rows = new ArrayList<>();
                int n = ROWS_PER_TYPE / 2 + data.random().nextInt(ROWS_PER_TYPE); // 6000 rows in all, on average
                for (int i = 0; i < n; i++) {
                    rows.add(data.row(type));
                }
                RowDataSerializer serializer = new RowDataSerializer(type);
                List<RowData> binary = new ArrayList<>();
                for (GenericRowData row : rows) {
                    binary.add(serializer.toBinaryRow(row).copy());
                }
                try {
                    assertRoundTrip(allocator, type, rows);
                    assertRoundTrip(allocator, type, binary);
                    assertRoundTripThroughIpc(allocator, type, rows);
                } catch (AssertionError e) {
                    throw new AssertionError("random type " + t + " " + type.asSerializableString() + ": "
                            + e.getMessage(), e);
                }
            }
        }
    }
}
