package org.flinkaccelerator.runtime.watermarks;

import org.apache.flink.runtime.event.WatermarkEvent;
import org.apache.flink.streaming.api.operators.Output;

/** A test output that ignores Flink 2's generalized watermarks, which no test here emits. */
abstract class OutputOfThisLine<T> implements Output<T> {
    @Override
    public void emitWatermark(WatermarkEvent watermark) {}
}
