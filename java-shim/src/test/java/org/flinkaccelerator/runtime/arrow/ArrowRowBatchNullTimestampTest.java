package org.flinkaccelerator.runtime.arrow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.operators.sink.StreamRecordTimestampInserter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A NULL rowtime meets Flink's sink timestamp inserter ({@code StreamRecordTimestampInserter},
 * which reads it without {@code isNullAt}) as it does stock: a rows stage's rows stand in for a
 * decoder's GenericRowData, on which the inserter fails, and a stateful operator's for
 * BinaryRowData, whose NULL reads as epoch 0 and is written.
 */
class ArrowRowBatchNullTimestampTest {
    private static final RowType TYPE = RowType.of(new IntType(), new TimestampType(3),
            new LocalZonedTimestampType(3));

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close();
    }

    private static List<RowData> rows() {
        return List.of(GenericRowData.of(1, TimestampData.fromEpochMillis(-1_500, 7), TimestampData.fromEpochMillis(5)),
                GenericRowData.of(2, null, null), GenericRowData.of(3, TimestampData.fromEpochMillis(2_000), null));
    }

    /** The timestamps the inserter (rowtime at {@code field}) gives each row, until it throws: then the exception. */
    private static List<Object> inserted(List<RowData> rows, int field) throws Exception {
        List<Object> out = new ArrayList<>();
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(new StreamRecordTimestampInserter(field, 3))) {
            harness.setup(new RowDataSerializer(TYPE));
            harness.open();
            String failure = null;
            for (RowData row : rows) {
                try {
                    harness.processElement(new StreamRecord<>(row, 42L));
                } catch (Exception e) {
                    failure = e.getClass().getName() + ": " + e.getMessage();
                    break;
                }
            }
            for (Object record : harness.getOutput()) {
                if (record instanceof StreamRecord<?> r) {
                    out.add(r.getTimestamp());
                }
            }
            if (failure != null) {
                out.add(failure);
            }
        }
        return out;
    }

    private List<Object> insertedFromArrow(Function<VectorSchemaRoot, ArrowRowBatch> view, int field) throws Exception {
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(TYPE, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, root);
            rows().forEach(writer::write);
            ArrowRowBatch batch = view.apply(writer.finish());
            List<RowData> rows = new ArrayList<>();
            for (int i = 0; i < batch.rowCount(); i++) {
                rows.add(batch.row(i));
            }
            return inserted(rows, field);
        }
    }

    @Test
    void aRowsStagesNullRowtimeFailsTheSinkAsADecodersRowDoes() throws Exception {
        for (int field : new int[] {1, 2}) {
            List<Object> stock = inserted(rows(), field);
            assertEquals(2, stock.size(), "stock fails on the second row: " + stock);
            assertEquals(stock, insertedFromArrow(r -> ArrowRowBatch.ofDecodedRows(TYPE, r), field), "field " + field);
        }
    }

    @Test
    void aStatefulOperatorsNullRowtimeReadsAsEpochZeroAsBinaryRowDataDoes() throws Exception {
        RowDataSerializer serializer = new RowDataSerializer(TYPE);
        List<RowData> binary = rows().stream().map(r -> (RowData) serializer.toBinaryRow(r).copy()).toList();
        for (int field : new int[] {1, 2}) {
            List<Object> stock = inserted(binary, field);
            assertEquals(3, stock.size(), "stock writes every row: " + stock);
            assertEquals(stock, insertedFromArrow(r -> new ArrowRowBatch(TYPE, r), field), "field " + field);
        }
    }

    @Test
    void aDecodedRowsNullTimestampIsNullOnlyWhereItIsNull() {
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(TYPE, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(TYPE, root);
            rows().forEach(writer::write);
            ArrowRowBatch batch = ArrowRowBatch.ofDecodedRows(TYPE, writer.finish());
            assertEquals(TimestampData.fromEpochMillis(-1_500, 7), batch.row(0).getTimestamp(1, 3));
            assertEquals(null, batch.row(1).getTimestamp(1, 3));
            assertEquals(null, batch.row(2).getTimestamp(2, 3));
            assertThrows(IndexOutOfBoundsException.class, () -> batch.row(3));
        }
    }
}
