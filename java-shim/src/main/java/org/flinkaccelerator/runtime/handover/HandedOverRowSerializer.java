package org.flinkaccelerator.runtime.handover;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.data.RowData;

/**
 * A row serializer ({@code RowDataSerializer}) whose {@code copy} returns the row itself. Without object reuse Flink
 * copies every record that goes from one chained operator to the next (its
 * {@code CopyingChainingOutput}) so the receiver may keep it while the sender reuses it; on the
 * edges this serializer is declared for, the sender makes a new row for every record and never
 * touches it again, so that copy (a new row and a new byte array per Kafka message) buys nothing.
 * Everything that writes or reads bytes (a network edge, should the operators not be chained) is
 * the wrapped serializer's.
 */
public final class HandedOverRowSerializer extends TypeSerializer<RowData> {
    private static final long serialVersionUID = 1L;

    private final TypeSerializer<RowData> rows;

    public HandedOverRowSerializer(TypeSerializer<RowData> rows) {
        this.rows = rows;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TypeSerializer<RowData> duplicate() {
        return new HandedOverRowSerializer(rows.duplicate());
    }

    @Override
    public RowData createInstance() {
        return rows.createInstance();
    }

    /** The row itself: its sender made it for this record alone. */
    @Override
    public RowData copy(RowData from) {
        return from;
    }

    /** The row itself, as {@link #copy(RowData)}. */
    @Override
    public RowData copy(RowData from, RowData reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return rows.getLength();
    }

    @Override
    public void serialize(RowData record, DataOutputView target) throws IOException {
        rows.serialize(record, target);
    }

    @Override
    public RowData deserialize(DataInputView source) throws IOException {
        return rows.deserialize(source);
    }

    @Override
    public RowData deserialize(RowData reuse, DataInputView source) throws IOException {
        return rows.deserialize(reuse, source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        rows.copy(source, target);
    }

    /** The wrapped serializer's snapshot: what is written is its format, and it restores as that serializer. */
    @Override
    public TypeSerializerSnapshot<RowData> snapshotConfiguration() {
        return rows.snapshotConfiguration();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HandedOverRowSerializer that && rows.equals(that.rows);
    }

    @Override
    public int hashCode() {
        return rows.hashCode() * 31 + 1;
    }
}
