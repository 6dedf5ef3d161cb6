package org.flinkaccelerator.runtime.watermarks;

import org.apache.flink.runtime.event.WatermarkEvent;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.io.PushingAsyncDataInput;

/** A source's data output that passes Flink 2's generalized watermarks on to the operator's output until it ended. */
abstract class WatermarkEventForwarding<T> implements PushingAsyncDataInput.DataOutput<T> {
    /** The operator's output. */
    abstract Output<?> output();

    /** Whether the source's final watermark went out (nothing follows it). */
    abstract boolean ended();

    @Override
    public void emitWatermark(WatermarkEvent watermark) {
        if (!ended()) {
            output().emitWatermark(watermark);
        }
    }
}
