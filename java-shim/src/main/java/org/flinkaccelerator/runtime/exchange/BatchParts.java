package org.flinkaccelerator.runtime.exchange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * The sending half of a batch exchange: one output's answer of a rows stage for one batch of
 * messages (the main output's, or a shared source's branch's on its side output), its rows
 * already the keyed operator's {@code update} rows and grouped by target subtask
 * ({@code accelerator/exchange/split.py}), goes out as one {@link BatchRecords} record per subtask
 * and stretch of messages, each row with its message's record timestamp ({@link #TIMESTAMP}).
 *
 * <p>Within one answer the operator {@link #stamp}s each message in turn and {@link #release}s the
 * rows of the messages stamped so far before anything else leaves the operator (a watermark, a
 * status change): every subtask then sees its rows and the watermarks in the order stock's
 * per-row exchange gives them.
 */
public final class BatchParts {
    public static final String MESSAGE = "$message";
    public static final String CHANNEL = "$channel";
    public static final String KEY = "$key";
    public static final String KEY_GROUP = "$key_group";
    /** Each row's record timestamp (epoch milliseconds), NULL when its message had none. */
    public static final String TIMESTAMP = "$timestamp";

    private final String operator;
    private final BufferAllocator allocator;
    private final Output<StreamRecord<RowData>> output;
    /** The side output the records go to; null for the main output. */
    private final OutputTag<RowData> tag;
    private final int channels;
    private final StreamRecord<RowData> outRecord = new StreamRecord<>(null);

    // The answer being sent.
    private IntVector messages;
    private BigIntVector timestamps;
    private VectorSchemaRoot parts;
    /** Per channel: its next unsent row and the end of its rows. */
    private int[] next;
    private int[] end;
    private long[] messageTimestamps = new long[64];
    private boolean[] messageHasTimestamp = new boolean[64];
    private int released;

    /**
     * @param tag the side output of the rows stage's branch whose rows these are; null for the
     *     main output
     * @param channels the consumer's parallelism
     */
    public BatchParts(String operator, BufferAllocator allocator, Output<StreamRecord<RowData>> output,
            OutputTag<RowData> tag, int channels) {
        this.operator = operator;
        this.allocator = allocator;
        this.output = output;
        this.tag = tag;
        this.channels = channels;
    }

    /** Takes the answer for a batch of {@code messageCount} messages; nothing goes out until {@link #release}. */
    public void start(VectorSchemaRoot answer, int messageCount) {
        if (!(answer.getVector(MESSAGE) instanceof IntVector m) || !(answer.getVector(CHANNEL) instanceof IntVector c)) {
            throw new IllegalArgumentException("the answer " + answer.getSchema() + " has no int " + MESSAGE + " and "
                    + CHANNEL + " columns");
        }
        messages = m;
        int rows = answer.getRowCount();
        int[] counts = new int[channels];
        int previous = 0;
        for (int i = 0; i < rows; i++) {
            int channel = c.get(i);
            if (channel < previous || channel >= channels) {
                throw new IllegalArgumentException("row " + i + " of the answer is for subtask " + channel + " after "
                        + previous + " (of " + channels + "): the rows are not grouped by subtask");
            }
            counts[channel]++;
            previous = channel;
        }
        next = new int[channels];
        end = new int[channels];
        for (int channel = 0, at = 0; channel < channels; at += counts[channel], channel++) {
            next[channel] = at;
            end[channel] = at + counts[channel];
        }
        timestamps = new BigIntVector(new Field(TIMESTAMP, FieldType.nullable(new ArrowType.Int(64, true)), null),
                allocator);
        timestamps.allocateNew(rows);
        timestamps.setValueCount(rows);
        List<Field> fields = new ArrayList<>();
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector vector : answer.getFieldVectors()) {
            if (vector != messages && vector != c) {
                fields.add(vector.getField());
                vectors.add(vector);
            }
        }
        fields.add(timestamps.getField());
        vectors.add(timestamps);
        parts = new VectorSchemaRoot(fields, vectors, rows);
        if (messageTimestamps.length < messageCount) {
            messageTimestamps = Arrays.copyOf(messageTimestamps, messageCount);
            messageHasTimestamp = Arrays.copyOf(messageHasTimestamp, messageCount);
        }
        released = 0;
    }

    /** Message {@code message}'s turn: its rows carry {@code timestamp}, or none. */
    public void stamp(int message, boolean hasTimestamp, long timestamp) {
        messageTimestamps[message] = timestamp;
        messageHasTimestamp[message] = hasTimestamp;
        released = message + 1;
    }

    /** Sends, per subtask, the rows of the messages stamped so far that are not sent yet. */
    public void release() {
        if (parts == null) {
            return;
        }
        for (int channel = 0; channel < channels; channel++) {
            int from = next[channel];
            int to = from;
            while (to < end[channel] && messages.get(to) < released) {
                int message = messages.get(to);
                if (messageHasTimestamp[message]) {
                    timestamps.set(to, messageTimestamps[message]);
                } else {
                    timestamps.setNull(to);
                }
                to++;
            }
            if (to > from) {
                send(channel, from, to);
                next[channel] = to;
            }
        }
    }

    /** Sends what is left of the answer and lets it go (the caller closes the answer). */
    public void finish() {
        release();
        for (int channel = 0; channel < channels; channel++) {
            if (next[channel] != end[channel]) {
                throw new IllegalArgumentException("rows of messages not replayed remain for subtask " + channel);
            }
        }
        timestamps.close();
        timestamps = null;
        parts = null;
        messages = null;
    }

    /** Frees the answer's own buffers after a failure. */
    public void abandon() {
        if (timestamps != null) {
            timestamps.close();
        }
        timestamps = null;
        parts = null;
        messages = null;
    }

    private void send(int channel, int from, int to) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + (to - from) * 32);
        try (VectorSchemaRoot slice = parts.slice(from, to - from);
                ArrowStreamWriter writer = new ArrowStreamWriter(slice, null, Channels.newChannel(bytes))) {
            writer.start();
            writer.writeBatch();
            writer.end();
        } catch (IOException e) {
            throw new SidecarException(operator + ": writing " + (to - from) + " rows for subtask " + channel
                    + " of the batch exchange" + (tag == null ? "" : " of side output " + tag.getId()) + " failed: "
                    + e.getMessage(), e);
        }
        StreamRecord<RowData> record = outRecord.replace(BatchRecords.of(channel, bytes.toByteArray()));
        if (tag == null) {
            output.collect(record);
        } else {
            output.collect(tag, record);
        }
    }
}
