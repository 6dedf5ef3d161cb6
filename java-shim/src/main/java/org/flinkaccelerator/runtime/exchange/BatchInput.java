package org.flinkaccelerator.runtime.exchange;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * Reads the batch records a keyed operator receives over a batch exchange: one Arrow IPC stream
 * per record, whose rows are the operator's {@code update} rows ({@code $key}, {@code $key_group},
 * its columns) and each row's record timestamp ({@link BatchParts#TIMESTAMP}, NULL for none). Each
 * row's key group must be one of the subtask's: the sender computed it ({@code
 * accelerator/exchange/key_groups.py}) and the state is filed under it.
 */
public final class BatchInput {
    /** What the operator does with one record's rows. */
    @FunctionalInterface
    public interface PartHandler {
        void accept(VectorSchemaRoot update, IntFunction<RowData> keys, long[] timestamps, boolean[] hasTimestamp)
                throws Exception;
    }

    private final String operator;
    private final BufferAllocator allocator;
    private final KeyGroupRange keyGroups;
    private final int keyArity;

    public BatchInput(String operator, BufferAllocator allocator, KeyGroupRange keyGroups, int keyArity) {
        this.operator = operator;
        this.allocator = allocator;
        this.keyGroups = keyGroups;
        this.keyArity = keyArity;
    }

    /** Hands the rows of {@code record} (a {@link BatchRecords} record) to {@code handler}, then frees them. */
    public void process(RowData record, PartHandler handler) throws Exception {
        try (ArrowStreamReader reader = new ArrowStreamReader(
                new ByteArrayInputStream(BatchRecords.arrowStream(record)), allocator)) {
            while (reader.loadNextBatch()) {
                handle(reader.getVectorSchemaRoot(), handler);
            }
        } catch (IOException e) {
            throw new SidecarException(operator + ": a batch from the batch exchange is no Arrow IPC stream: "
                    + e.getMessage() + "; run the job with accelerator.exchange.batched.enabled: false and report this",
                    e);
        }
    }

    private void handle(VectorSchemaRoot root, PartHandler handler) throws Exception {
        int rows = root.getRowCount();
        FieldVector keyGroupVector = root.getVector(BatchParts.KEY_GROUP);
        FieldVector keyVector = root.getVector(BatchParts.KEY);
        FieldVector timestampVector = root.getVector(BatchParts.TIMESTAMP);
        if (!(keyGroupVector instanceof IntVector groups) || !(keyVector instanceof VarBinaryVector keys)
                || !(timestampVector instanceof BigIntVector stamps)) {
            throw new SidecarException(operator + ": a batch from the batch exchange has the columns "
                    + root.getSchema() + ", without an int " + BatchParts.KEY_GROUP + ", binary " + BatchParts.KEY
                    + " and bigint " + BatchParts.TIMESTAMP);
        }
        long[] timestamps = new long[rows];
        boolean[] hasTimestamp = new boolean[rows];
        for (int i = 0; i < rows; i++) {
            int group = groups.get(i);
            if (!keyGroups.contains(group)) {
                throw new SidecarException(operator + ": row " + i + " of a batch from the batch exchange is of key"
                        + " group " + group + ", not one of this subtask's (" + keyGroups + "): the rows stage split"
                        + " it for another parallelism or max parallelism. Run the job with"
                        + " accelerator.exchange.batched.enabled: false and report this");
            }
            hasTimestamp[i] = !stamps.isNull(i);
            timestamps[i] = hasTimestamp[i] ? stamps.get(i) : 0L;
        }
        List<Field> fields = new ArrayList<>();
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector vector : root.getFieldVectors()) {
            if (vector != timestampVector) {
                fields.add(vector.getField());
                vectors.add(vector);
            }
        }
        // A view of the reader's vectors: the reader frees them.
        VectorSchemaRoot update = new VectorSchemaRoot(fields, vectors, rows);
        handler.accept(update, row -> key(keys, row), timestamps, hasTimestamp);
    }

    /** The key of batch row {@code row}: a BinaryRowData over the key bytes the sender wrote, as Flink's key selector makes it. */
    private BinaryRowData key(VarBinaryVector keys, int row) {
        byte[] bytes = keys.get(row);
        BinaryRowData key = new BinaryRowData(keyArity);
        key.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
        return key;
    }
}
