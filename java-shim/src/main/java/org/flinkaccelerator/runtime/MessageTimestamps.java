package org.flinkaccelerator.runtime;

import java.util.Arrays;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The record timestamp of each message of the pending batch (Flink's Kafka source stamps each
 * record with its Kafka timestamp), so a rows stage gives each row its message's timestamp, as
 * Flink's own Calc keeps its input record's. Primitive arrays, reused from batch to batch.
 */
final class MessageTimestamps {
    private long[] timestamps = new long[0];
    private boolean[] present = new boolean[0];

    /** Remembers the timestamp (or its absence) of message {@code index} of the batch. */
    void set(int index, StreamRecord<?> record) {
        if (index >= timestamps.length) {
            int size = Math.max(1024, index * 2);
            timestamps = Arrays.copyOf(timestamps, size);
            present = Arrays.copyOf(present, size);
        }
        present[index] = record.hasTimestamp();
        timestamps[index] = record.getTimestamp();
    }

    /** Whether message {@code index} had a timestamp. */
    boolean has(int index) {
        return present[index];
    }

    /** The timestamp of message {@code index}, or {@code absent} when it had none. */
    long get(int index, long absent) {
        return present[index] ? timestamps[index] : absent;
    }

    /** Gives {@code record} the timestamp of message {@code index}, or none when that message had none. */
    void stamp(StreamRecord<?> record, int index) {
        if (present[index]) {
            record.setTimestamp(timestamps[index]);
        } else {
            record.eraseTimestamp();
        }
    }
}
