package org.flinkaccelerator.runtime.windowagg;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.util.HexFormat;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;

/**
 * The accelerated window aggregate's state in Flink's checkpoints
 * (docs/design/stateful-window-aggregate.md §3.5): one frame per key group of the raw keyed state
 * and a marker in operator union list state, and the checks that turn a mismatch into an error
 * saying what to do.
 *
 * <p>Frame (little-endian): magic {@code FAWA}, state format version (int32), the descriptor's
 * state fingerprint (32 bytes), payload length (int64), then the payload: one Arrow IPC stream
 * (schema, one batch, end marker) of the sidecar's snapshot rows of that key group, or nothing
 * for a key group without state.
 */
public final class WindowAggStateFormat {
    /** The state format this jar writes and reads (2: entries are slices and timers, as HOP windows need). */
    public static final int VERSION = 2;
    /** Name of the operator union list state holding the marker {@code "<version>:<fingerprint>"}. */
    public static final String MARKER_STATE = "accelerator-window-agg-format";

    static final byte[] MAGIC = {'F', 'A', 'W', 'A'};
    static final int HEADER_BYTES = 4 + 4 + 32 + 8;

    private WindowAggStateFormat() {}

    public static String marker(String fingerprint) {
        return VERSION + ":" + fingerprint;
    }

    /** Fails unless the restored markers (the union of all subtasks') say this jar and this query wrote the state. */
    public static void checkMarkers(Iterable<String> markers, String fingerprint) {
        boolean any = false;
        for (String marker : markers) {
            any = true;
            int colon = marker.indexOf(':');
            int version;
            try {
                version = Integer.parseInt(marker.substring(0, Math.max(colon, 0)));
            } catch (NumberFormatException e) {
                throw new WindowAggStateException("the accelerated window state's format marker '" + marker
                        + "' is not '<version>:<fingerprint>'", e);
            }
            checkVersion(version);
            checkFingerprint(marker.substring(colon + 1), fingerprint);
        }
        if (!any) {
            throw new WindowAggStateException("this state was written by stock Flink's window aggregate (or by a job"
                    + " without the accelerator): it has no " + MARKER_STATE + " marker; restore it with"
                    + " accelerator.window-aggregate.enabled: false (Flink's own window aggregate reads it), or start"
                    + " without state");
        }
    }

    private static void checkVersion(int version) {
        if (version > VERSION) {
            throw new WindowAggStateException("the accelerated window state was written by a newer"
                    + " flink-accelerator (state format " + version + "); this jar reads format " + VERSION);
        }
        if (version == 1) {
            throw new WindowAggStateException("the accelerated window state was written by an older"
                    + " flink-accelerator (state format 1, windows without their timers); this jar reads format "
                    + VERSION + ": start the job without state, or restore it with the jar that wrote it");
        }
        if (version < 1) {
            throw new WindowAggStateException("the accelerated window state has format " + version
                    + ", which no flink-accelerator writes");
        }
    }

    private static void checkFingerprint(String written, String expected) {
        if (!written.equals(expected)) {
            throw new WindowAggStateException("the query's window aggregate changed (keys, aggregates or window);"
                    + " this state cannot be restored into it (state fingerprint " + written + ", the query's "
                    + expected + ")");
        }
    }

    /** Writes one key group's frame: {@code rows} (null or empty for a group without state) as one IPC stream. */
    public static void write(OutputStream out, String fingerprint, VectorSchemaRoot rows) throws IOException {
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
        header.put(MAGIC).putInt(VERSION).put(HexFormat.of().parseHex(fingerprint)).putLong(payload.length);
        out.write(header.array());
        out.write(payload);
    }

    /**
     * Reads key group {@code keyGroup}'s frame from {@code in}: its rows, or null when the group
     * has no state. The caller closes the root.
     */
    public static VectorSchemaRoot read(InputStream in, int keyGroup, String fingerprint, BufferAllocator allocator)
            throws IOException {
        byte[] headerBytes = readFully(in, HEADER_BYTES, keyGroup);
        ByteBuffer header = ByteBuffer.wrap(headerBytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[4];
        header.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw corrupt(keyGroup, "it does not start with the frame's magic bytes");
        }
        checkVersion(header.getInt());
        byte[] written = new byte[32];
        header.get(written);
        checkFingerprint(HexFormat.of().formatHex(written), fingerprint);
        long length = header.getLong();
        if (length < 0 || length > Integer.MAX_VALUE) {
            throw corrupt(keyGroup, "its payload length " + length + " is impossible");
        }
        if (length == 0) {
            return null;
        }
        byte[] payload = readFully(in, (int) length, keyGroup);
        try (ArrowStreamReader reader = new ArrowStreamReader(new java.io.ByteArrayInputStream(payload), allocator)) {
            if (!reader.loadNextBatch()) {
                throw corrupt(keyGroup, "its payload holds no Arrow batch");
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
            if (e instanceof WindowAggStateException) {
                throw e;
            }
            throw new WindowAggStateException("corrupt accelerated window state in key group " + keyGroup
                    + ": its Arrow payload cannot be read (" + e.getMessage() + ")", e);
        }
    }

    private static byte[] readFully(InputStream in, int n, int keyGroup) throws IOException {
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

    private static WindowAggStateException corrupt(int keyGroup, String why) {
        return new WindowAggStateException("corrupt accelerated window state in key group " + keyGroup + ": " + why);
    }

    private static WindowAggStateException corrupt(int keyGroup, String why, Throwable cause) {
        return new WindowAggStateException("corrupt accelerated window state in key group " + keyGroup + ": " + why,
                cause);
    }
}
