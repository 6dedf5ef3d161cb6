package org.flinkaccelerator.runtime.arrow;

import static org.flinkaccelerator.runtime.arrow.FlinkDataAssertions.assertRowEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/** Writes rows with {@link RowDataArrowWriter} and checks {@link ArrowRowBatch} reads back equal rows. */
final class ArrowRoundTrip {
    private ArrowRoundTrip() {}

    /** In memory: the writer's root is read directly. */
    static void assertRoundTrip(BufferAllocator allocator, RowType type, List<? extends RowData> rows) {
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            rows.forEach(writer::write);
            assertRowsRead(type, rows, writer.finish());
        }
    }

    /** Through Arrow IPC, as batches cross to and from the sidecar: the reader's root is read. */
    static void assertRoundTripThroughIpc(BufferAllocator allocator, RowType type, List<? extends RowData> rows) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator);
                ArrowStreamWriter out = new ArrowStreamWriter(root, null, bytes)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            rows.forEach(writer::write);
            writer.finish();
            out.start();
            out.writeBatch();
            out.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try (ArrowStreamReader in = new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator)) {
            assertEquals(true, in.loadNextBatch());
            assertRowsRead(type, rows, in.getVectorSchemaRoot());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void assertRowsRead(RowType type, List<? extends RowData> expected, VectorSchemaRoot root) {
        ArrowRowBatch batch = new ArrowRowBatch(type, root);
        assertEquals(expected.size(), batch.rowCount(), "rows in the batch");
        for (int i = 0; i < expected.size(); i++) {
            assertRowEquals(type, expected.get(i), batch.row(i), "row " + i);
        }
    }
}
