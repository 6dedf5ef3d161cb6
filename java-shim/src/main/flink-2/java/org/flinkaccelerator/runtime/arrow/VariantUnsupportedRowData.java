package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.variant.Variant;

/** A {@link RowData} of Arrow columns, which never hold Flink 2's VARIANT type. */
abstract class VariantUnsupportedRowData implements RowData {
    @Override
    public Variant getVariant(int pos) {
        throw ArrowValues.unsupported("VARIANT");
    }
}
