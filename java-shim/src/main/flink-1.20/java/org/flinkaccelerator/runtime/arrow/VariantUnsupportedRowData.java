package org.flinkaccelerator.runtime.arrow;

import org.apache.flink.table.data.RowData;

/** A {@link RowData} of Arrow columns; Flink 1.20 has no VARIANT type, so nothing to refuse. */
abstract class VariantUnsupportedRowData implements RowData {}
