package org.flinkaccelerator.runtime.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;

class BatchChannelPartitionerTest {
    private static int select(BatchChannelPartitioner partitioner, int channel) {
        SerializationDelegate<StreamRecord<RowData>> delegate = new SerializationDelegate<>(null);
        delegate.setInstance(new StreamRecord<>(BatchRecords.of(channel, new byte[] {1, 2})));
        return partitioner.selectChannel(delegate);
    }

    @Test
    void aRecordGoesToTheChannelItNames() {
        BatchChannelPartitioner partitioner = new BatchChannelPartitioner();
        partitioner.setup(3);
        assertEquals(0, select(partitioner, 0));
        assertEquals(2, select(partitioner, 2));
        assertEquals(1, select(partitioner, 1));
    }

    @Test
    void aChannelOutsideTheExchangeFailsNamingTheOption() {
        BatchChannelPartitioner partitioner = new BatchChannelPartitioner();
        partitioner.setup(2);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> select(partitioner, 2));
        assertEquals(true, e.getMessage().contains("accelerator.exchange.batched.enabled: false"), e.getMessage());
    }

    @Test
    void unalignedCheckpointsAreNotTakenOverThisEdge() {
        assertFalse(new BatchChannelPartitioner().isSupportsUnalignedCheckpoint());
    }
}
