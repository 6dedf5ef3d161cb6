package org.flinkaccelerator.runtime.state;

import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.LatencyMarker;
import org.apache.flink.streaming.runtime.streamrecord.RecordAttributes;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.OutputTag;

/**
 * An operator's output that passes everything on to Flink's, for a subclass to act before some of
 * it (Flink 1.20's Output, without generalized watermarks).
 */
abstract class ForwardingOutput implements Output<StreamRecord<RowData>> {
    protected final Output<StreamRecord<RowData>> output;

    ForwardingOutput(Output<StreamRecord<RowData>> output) {
        this.output = output;
    }

    @Override
    public void emitWatermark(Watermark mark) {
        output.emitWatermark(mark);
    }

    @Override
    public void emitWatermarkStatus(WatermarkStatus status) {
        output.emitWatermarkStatus(status);
    }

    @Override
    public <X> void collect(OutputTag<X> tag, StreamRecord<X> record) {
        output.collect(tag, record);
    }

    @Override
    public void emitLatencyMarker(LatencyMarker marker) {
        output.emitLatencyMarker(marker);
    }

    @Override
    public void emitRecordAttributes(RecordAttributes attributes) {
        output.emitRecordAttributes(attributes);
    }

    @Override
    public void collect(StreamRecord<RowData> record) {
        output.collect(record);
    }

    @Override
    public void close() {
        output.close();
    }
}
