package org.flinkaccelerator.runtime.watermarks;

import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;

/** A source's data output; Flink 1.20 has no generalized watermarks to pass on. */
abstract class WatermarkEventForwarding<T> implements PushingAsyncDataInput.DataOutput<T> {
    /** The operator's output. */
    abstract Output<?> output();

    /** Whether the source's final watermark went out (nothing follows it). */
    abstract boolean ended();
}
