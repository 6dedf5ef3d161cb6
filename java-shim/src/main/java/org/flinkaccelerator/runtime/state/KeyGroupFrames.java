package org.flinkaccelerator.runtime.state;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.IntConsumer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * One sidecar operator's frames in Flink's raw keyed state (the accelerated stateful operators
 * share the layout, each with its own magic and version). Frame (little-endian): magic (4 bytes),
 * state format (int32), the descriptor's state fingerprint (32 bytes), payload length (int64), then
 * the payload: one Arrow IPC stream (schema, one batch, end marker) of the sidecar's snapshot rows,
 * or nothing.
 *
 * <p>A key group is one frame of state format {@code version} (without payload for a key group
 * without state), unless its rows were larger than one snapshot piece ({@code
 * accelerator.batch.max-bytes}): then it is a run of frames of state format {@link #pieced()}, one
 * per piece holding its rows, ended by one without payload. A jar from before snapshot pieces
 * refuses that format as written by a newer flink-accelerator (the marker says so first,
 * {@link SidecarStateFormat#marker}) instead of reading only a key group's first frame.
 *
 * @param what the state as messages name it ("window", "group aggregate")
 * @param checkVersion throws, saying what to do, for a rows' version this jar does not read
 * @param checkFingerprint throws, saying what to do, for (written, expected) fingerprints that differ
 * @param failure the exception of a corrupt frame: (message, cause or null)
 */
public record KeyGroupFrames(byte[] magic, int version, String what, IntConsumer checkVersion,
        BiConsumer<String, String> checkFingerprint, BiFunction<String, Throwable, RuntimeException> failure) {
    public static final int HEADER_BYTES = 4 + 4 + 32 + 8;
    /** What the state format of a key group spanning snapshot pieces adds to its rows' version. */
    public static final int PIECED = 1000;

    /** The state format of the frames of a key group spanning snapshot pieces. */
    public int pieced() {
        return PIECED + version;
    }

    /** Writes one key group as one frame: {@code rows} (null or empty for a group without state). */
    public void write(OutputStream out, String fingerprint, VectorSchemaRoot rows) throws IOException {
        frame(out, version, fingerprint, rows);
    }

    /** Writes one piece's rows (some) of a key group spanning pieces; {@link #endPieces} ends the key group. */
    public void writePiece(OutputStream out, String fingerprint, VectorSchemaRoot rows) throws IOException {
        frame(out, pieced(), fingerprint, rows);
    }

    /** Ends a key group written by {@link #writePiece}. */
    public void endPieces(OutputStream out, String fingerprint) throws IOException {
        frame(out, pieced(), fingerprint, null);
    }

    private void frame(OutputStream out, int format, String fingerprint, VectorSchemaRoot rows) throws IOException {
        byte[] payload = new byte[0];
        if (rows != null && rows.getRowCount() > 0) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ArrowStreamWriter writer = new ArrowStreamWriter(rows, null, Channels.newChannel(bytes))) {
                writer.start();
                writer.writeBatch();
                writer.end();
            }
            payload = bytes.toByteArray();
        }
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        header.put(magic).putInt(format).put(HexFormat.of().parseHex(fingerprint)).putLong(payload.length);
        out.write(header.array());
        out.write(payload);
    }

    /**
     * Reads key group {@code keyGroup}'s frames from {@code in}, handing each frame's rows to
     * {@code rows} (closed once it returns) with whether more of the key group's rows follow in a
     * next frame (a key group spanning snapshot pieces); answers the count of rows, 0 for a group
     * without state.
     */
    public long read(InputStream in, int keyGroup, String fingerprint, BufferAllocator allocator,
            BiConsumer<VectorSchemaRoot, Boolean> rows) throws IOException {
        long count = 0;
        Header frame = header(in, keyGroup, fingerprint, -1);
        while (frame.length() > 0) {
            try (VectorSchemaRoot root = payload(in, keyGroup, (int) frame.length(), allocator)) {
                // A piece's frame is followed by the next piece's or the empty one ending the key group.
                Header next = frame.format() < PIECED ? null : header(in, keyGroup, fingerprint, frame.format());
                count += root.getRowCount();
                rows.accept(root, next != null && next.length() > 0);
                if (next == null) {
                    break;
                }
                frame = next;
            }
        }
        return count;
    }

    /** A frame's state format and payload length. */
    private record Header(int format, long length) {}

    /** Reads and checks the next frame's header; {@code previous}: the key group's frames' format so far, or -1. */
    private Header header(InputStream in, int keyGroup, String fingerprint, int previous) throws IOException {
        ByteBuffer header = ByteBuffer.wrap(readFully(in, HEADER_BYTES, keyGroup)).order(ByteOrder.LITTLE_ENDIAN);
        byte[] written = new byte[4];
        header.get(written);
        if (!Arrays.equals(written, magic)) {
            throw corrupt(keyGroup, "it does not start with the frame's magic bytes", null);
        }
        int format = header.getInt();
        checkFormat(format);
        if (previous >= 0 && format != previous) {
            throw corrupt(keyGroup, "its frames have state formats " + previous + " and " + format, null);
        }
        byte[] writtenFingerprint = new byte[32];
        header.get(writtenFingerprint);
        checkFingerprint.accept(HexFormat.of().formatHex(writtenFingerprint), fingerprint);
        long length = header.getLong();
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw corrupt(keyGroup, "its payload length " + length + " is impossible", null);
        }
        return new Header(format, length);
    }

    /**
     * Fails, saying what to do, unless this jar reads state format {@code written} (a frame's or a
     * marker's): {@code version}'s rows in one frame per key group or in {@link #pieced()} frames.
     */
    public void checkFormat(int written) {
        if (written < PIECED) {
            checkVersion.accept(written);
            return;
        }
        if (written > pieced()) {
            throw failure.apply("the accelerated " + what + " state was written by a newer flink-accelerator (state"
                    + " format " + written + "); this jar reads formats up to " + pieced() + ": restore it with the"
                    + " jar that wrote it, or start without state", null);
        }
        checkVersion.accept(written - PIECED);
    }

    private VectorSchemaRoot payload(InputStream in, int keyGroup, int length, BufferAllocator allocator)
            throws IOException {
        byte[] payload = readFully(in, length, keyGroup);
        RuntimeException refused = null;
        try (ArrowStreamReader reader = new ArrowStreamReader(new ByteArrayInputStream(payload), allocator)) {
            if (!reader.loadNextBatch()) {
                refused = corrupt(keyGroup, "its payload holds no Arrow batch", null);
                throw refused;
            }
            VectorSchemaRoot loaded = reader.getVectorSchemaRoot();
            VectorSchemaRoot copy = VectorSchemaRoot.create(loaded.getSchema(), allocator);
            try {
                for (int i = 0; i < loaded.getFieldVectors().size(); i++) {
                    loaded.getVector(i).makeTransferPair(copy.getVector(i)).transfer();
                }
                copy.setRowCount(loaded.getRowCount());
                return copy;
            } catch (RuntimeException e) {
                copy.close();
                throw e;
            }
        } catch (IOException | RuntimeException e) {
            if (e == refused) {
                throw refused;
            }
            throw corrupt(keyGroup, "its Arrow payload cannot be read (" + e.getMessage() + ")", e);
        }
    }

    private byte[] readFully(InputStream in, int n, int keyGroup) throws IOException {
        byte[] out = new byte[n];
        int read = 0;
        while (read < n) {
            int got = in.read(out, read, n - read);
            if (got < 0) {
                throw corrupt(keyGroup, "it ends after " + read + " of " + n + " bytes", new EOFException());
            }
            read += got;
        }
        return out;
    }

    private RuntimeException corrupt(int keyGroup, String why, Throwable cause) {
        return failure.apply("corrupt accelerated " + what + " state in key group " + keyGroup + ": " + why, cause);
    }
}
