package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.ArrayData;

/** A {@link ArrayData} of Arrow columns; Flink 1.20 has no VARIANT type, so nothing to refuse. */
abstract class VariantUnsupportedArrayData implements ArrayData {}
