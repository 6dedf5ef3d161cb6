package org.flinkaccelerator.runtime.exchange;

import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * Sends each {@link BatchRecords} record to the channel it names: its sender split its rows by the
 * subtask Flink's keyed shuffle would send each of them to, from the key groups Flink computes
 * ({@code accelerator/exchange/key_groups.py}), so every row still reaches the subtask owning its
 * key group.
 *
 * <p>No unaligned checkpoints over this edge ({@link #isSupportsUnalignedCheckpoint}: Flink
 * aligns its barriers instead): in-flight records restored into another parallelism would need
 * their rows re-split, and this partitioner only moves whole records.
 */
public final class BatchChannelPartitioner extends StreamPartitioner<RowData> {
    private static final long serialVersionUID = 1L;

    @Override
    public int selectChannel(SerializationDelegate<StreamRecord<RowData>> record) {
        int channel = BatchRecords.channel(record.getInstance().getValue());
        if (channel < 0 || channel >= numberOfChannels) {
            throw new IllegalStateException("a batch of rows for subtask " + channel + " reached an exchange to "
                    + numberOfChannels + " subtasks; the sender split it for another parallelism. Run the job with"
                    + " accelerator.exchange.batched.enabled: false and report this");
        }
        return channel;
    }

    @Override
    public StreamPartitioner<RowData> copy() {
        return this;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.RANGE;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public boolean isSupportsUnalignedCheckpoint() {
        return false;
    }

    @Override
    public String toString() {
        return "BATCH-CHANNEL";
    }
}
