package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.ArrayData;
import org.apache.flink.types.variant.Variant;

/** A {@link ArrayData} of Arrow columns, which never hold Flink 2's VARIANT type. */
abstract class VariantUnsupportedArrayData implements ArrayData {
    @Override
    public Variant getVariant(int pos) {
        throw ArrowValues.unsupported("VARIANT");
    }
}
