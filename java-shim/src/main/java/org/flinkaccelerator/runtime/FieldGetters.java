package org.flinkaccelerator.runtime;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Field getters that read a NULL field as null whatever its type's nullability, on both Flink
 * lines. Flink 2's {@code RowData.createFieldGetter} checks {@code isNullAt} for every type; 1.20's
 * skips the check for a NOT NULL type and reads the field's slot, so a NULL there (Flink keeps a
 * PROCTIME() column NULL in its rows until something materializes it) would reach the sidecar as a
 * value (epoch 0) while stock's operators pass the NULL on.
 */
public final class FieldGetters {
    private FieldGetters() {}

    public static RowData.FieldGetter nullChecked(LogicalType type, int position) {
        return RowData.createFieldGetter(type.copy(true), position);
    }
}
