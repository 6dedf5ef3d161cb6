package org.flinkaccelerator.runtime.handover;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** The handed-over rows' serializer against Flink's own RowDataSerializer of the same row type. */
class HandedOverRowSerializerTest {
    private static final RowType ROW = RowType.of(new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new VarCharType(VarCharType.MAX_LENGTH), new BigIntType());

    private static byte[] write(TypeSerializer<RowData> serializer, RowData row) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(row, out);
        return out.getCopyOfBuffer();
    }

    @Test
    void copyHandsTheRowOverAndTheBytesAreFlinksOwn() throws Exception {
        TypeSerializer<RowData> handedOver = HandedOverRowTypeInfo.of(ROW).createSerializer(new SerializerConfigImpl());
        TypeSerializer<RowData> flink = InternalTypeInfo.of(ROW).createSerializer(new SerializerConfigImpl());
        RowData row = GenericRowData.of(new byte[] {1, 2, 3}, StringData.fromString("topic-a"), 42L);

        assertSame(row, handedOver.copy(row));
        assertSame(row, handedOver.copy(row, handedOver.createInstance()));

        byte[] bytes = write(flink, row);
        assertArrayEquals(bytes, write(handedOver, row), "a network edge writes what Flink's serializer writes");
        RowData read = handedOver.deserialize(new DataInputDeserializer(bytes));
        assertArrayEquals(new byte[] {1, 2, 3}, read.getBinary(0));
        assertEquals("topic-a", read.getString(1).toString());
        assertEquals(42L, read.getLong(2));
        assertEquals(flink.snapshotConfiguration().getClass(), handedOver.snapshotConfiguration().getClass());
    }
}
