package org.flinkaccelerator.runtime.join;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.util.TransferPair;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.RowDataArrowWriter;

/**
 * The rows of a restored join state frame as the stage's {@code restore} takes them. A frame of
 * state format 4 holds each row without its key and fields, both of which its binary row
 * ({@code $order}, the bytes the operator sent for it, as {@code RowDataSerializer} writes the row)
 * gives: the row is read with Flink's {@link BinaryRowData}, its key is what the operator's key
 * selector of its input makes of it (as stock keys each record), and its fields are written into
 * the joined row's columns (its own input's filled, the other's NULL), as format 3 wrote them. A
 * frame that has them (format 3) is taken as written.
 */
final class JoinStateRows {
    /** A format 4 frame's columns: key group, side, count, associations, binary row. */
    static final List<String> WRITTEN = List.of("$key_group", "$side", "$count", "$associations", "$order");
    private static final String KEY = "$key";
    private static final byte LEFT = 0;
    private static final byte RIGHT = 1;

    private final String operator;
    private final RowType fields;
    private final int leftArity;
    private final int rightArity;

    JoinStateRows(String operator, JoinSpec spec) {
        this.operator = operator;
        this.fields = spec.fieldsType();
        this.leftArity = spec.leftType().getFieldCount();
        this.rightArity = spec.rightType().getFieldCount();
    }

    /**
     * {@code frame}'s rows (of key group {@code keyGroup}) with their keys and fields: {@code frame}
     * itself when it has them, else a new root the caller closes; {@code leftKeys} and {@code
     * rightKeys} are the operator's key selectors of its inputs.
     */
    VectorSchemaRoot complete(VectorSchemaRoot frame, BufferAllocator allocator, int keyGroup,
            KeySelector<RowData, ?> leftKeys, KeySelector<RowData, ?> rightKeys) {
        List<Field> columns = frame.getSchema().getFields();
        if (!columns.stream().map(Field::getName).toList().equals(WRITTEN)) {
            return frame;
        }
        TinyIntVector sides = (TinyIntVector) frame.getVector("$side");
        VarBinaryVector orders = (VarBinaryVector) frame.getVector("$order");
        int count = frame.getRowCount();
        List<FieldVector> made = new ArrayList<>();
        try (VectorSchemaRoot values = RowDataArrowWriter.createRoot(fields, allocator);
                VarBinaryVector keys = new VarBinaryVector(new Field(KEY, FieldType.notNullable(
                        ArrowType.Binary.INSTANCE), null), allocator)) {
            keys.allocateNew(count);
            RowDataArrowWriter writer = new RowDataArrowWriter(fields, values);
            BinaryRowData left = new BinaryRowData(leftArity);
            BinaryRowData right = new BinaryRowData(rightArity);
            GenericRowData noLeft = new GenericRowData(leftArity);
            GenericRowData noRight = new GenericRowData(rightArity);
            JoinedRowData joined = new JoinedRowData();
            for (int i = 0; i < count; i++) {
                byte side = sides.get(i);
                if (side != LEFT && side != RIGHT) {
                    throw new JoinStateException(operator + ": row " + i + " of the restored join state of key group "
                            + keyGroup + " has $side " + side + ", neither " + LEFT + " (left input) nor " + RIGHT
                            + " (right input); the checkpoint is corrupt: restore an earlier one, or start without"
                            + " state", null);
                }
                byte[] bytes = orders.get(i);
                BinaryRowData row = side == LEFT ? left : right;
                row.pointTo(MemorySegmentFactory.wrap(bytes), 0, bytes.length);
                BinaryRowData key = key(side == LEFT ? leftKeys : rightKeys, row, keyGroup, i);
                keys.setSafe(i, BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(),
                        key.getSizeInBytes()));
                joined.replace(side == LEFT ? row : noLeft, side == LEFT ? noRight : row);
                writer.write(joined);
            }
            keys.setValueCount(count);
            writer.finish();
            List<Field> schema = new ArrayList<>();
            List<FieldVector> moved = new ArrayList<>(columns.size() + 1 + fields.getFieldCount());
            moved.add(frame.getVector(0));
            moved.add(keys);
            moved.addAll(frame.getFieldVectors().subList(1, columns.size()));
            moved.addAll(values.getFieldVectors());
            for (FieldVector vector : moved) {
                TransferPair transfer = vector.getTransferPair(allocator);
                transfer.transfer();
                made.add((FieldVector) transfer.getTo());
                schema.add(vector.getField());
            }
            return new VectorSchemaRoot(schema, made, count);
        } catch (RuntimeException e) {
            made.forEach(FieldVector::close);
            throw e;
        }
    }

    private BinaryRowData key(KeySelector<RowData, ?> keys, BinaryRowData row, int keyGroup, int at) {
        try {
            return (BinaryRowData) keys.getKey(row);
        } catch (Exception e) {
            throw new JoinStateException(operator + ": the key of row " + at + " of the restored join state of key"
                    + " group " + keyGroup + " cannot be made from its binary row: " + e.getMessage(), e);
        }
    }
}
