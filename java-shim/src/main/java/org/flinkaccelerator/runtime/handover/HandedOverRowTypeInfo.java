package org.flinkaccelerator.runtime.handover;

import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.common.serialization.SerializerConfig;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.DataTypeQueryable;
import org.apache.flink.table.types.logical.RowType;

/**
 * The type of the rows on an edge where the sending operator makes a new row for every record and
 * never touches it again: {@link InternalTypeInfo} of the same row type in everything but its
 * serializer's {@code copy} ({@link HandedOverRowSerializer}), so Flink hands each row to the
 * chained operator after it as it is instead of copying it.
 */
public final class HandedOverRowTypeInfo extends TypeInformation<RowData> implements DataTypeQueryable {
    private static final long serialVersionUID = 1L;

    private final InternalTypeInfo<RowData> rows;

    private HandedOverRowTypeInfo(InternalTypeInfo<RowData> rows) {
        this.rows = rows;
    }

    /** Rows of {@code type}, handed over uncopied. */
    public static HandedOverRowTypeInfo of(RowType type) {
        return new HandedOverRowTypeInfo(InternalTypeInfo.of(type));
    }

    @Override
    public DataType getDataType() {
        return rows.getDataType();
    }

    @Override
    public boolean isBasicType() {
        return rows.isBasicType();
    }

    @Override
    public boolean isTupleType() {
        return rows.isTupleType();
    }

    @Override
    public int getArity() {
        return rows.getArity();
    }

    @Override
    public int getTotalFields() {
        return rows.getTotalFields();
    }

    @Override
    public Class<RowData> getTypeClass() {
        return rows.getTypeClass();
    }

    @Override
    public boolean isKeyType() {
        return rows.isKeyType();
    }

    @Override
    public TypeSerializer<RowData> createSerializer(SerializerConfig config) {
        return new HandedOverRowSerializer(rows.toRowSerializer());
    }

    /** Flink 1.20's abstract variant of {@link #createSerializer(SerializerConfig)} (2.x has no such method). */
    public TypeSerializer<RowData> createSerializer(ExecutionConfig config) {
        return new HandedOverRowSerializer(rows.toRowSerializer());
    }

    @Override
    public String toString() {
        return rows + " (handed over uncopied)";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HandedOverRowTypeInfo that && rows.equals(that.rows);
    }

    @Override
    public int hashCode() {
        return rows.hashCode() * 31 + 1;
    }

    @Override
    public boolean canEqual(Object other) {
        return other instanceof HandedOverRowTypeInfo;
    }
}
