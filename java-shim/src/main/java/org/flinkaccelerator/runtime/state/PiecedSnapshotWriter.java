package org.flinkaccelerator.runtime.state;

import java.io.IOException;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyedStateCheckpointOutputStream;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * Writes a sidecar's snapshot into Flink's raw keyed state as its pieces arrive, keeping none of
 * them: every key group of the subtask's range is started in ascending order (as {@link
 * KeyedStateCheckpointOutputStream#startNewKeyGroup} requires), a key group within one piece as
 * one frame, one whose rows go on in the next piece as a frame per piece and an end frame
 * ({@link KeyGroupFrames}).
 */
final class PiecedSnapshotWriter {
    private final KeyedStateCheckpointOutputStream out;
    private final KeyGroupFrames frames;
    private final String fingerprint;
    private final KeyGroupRange range;
    private final String operator;

    /** The first key group not started yet. */
    private int next;
    /** Whether key group {@code next - 1} goes on from the last piece. */
    private boolean spanning;
    private boolean pieced;
    private long entries;

    /** @param operator the operator as errors name it */
    PiecedSnapshotWriter(KeyedStateCheckpointOutputStream out, KeyGroupFrames frames, String fingerprint,
            KeyGroupRange range, String operator) {
        this.out = out;
        this.frames = frames;
        this.fingerprint = fingerprint;
        this.range = range;
        this.operator = operator;
        this.next = range.getStartKeyGroup();
    }

    /**
     * Writes the next piece: rows grouped by key group ({@code keyGroups}, ascending, beginning with
     * the last piece's last key group when that one went on); {@code continues}: its last key group
     * goes on in the next piece.
     */
    void write(VectorSchemaRoot piece, IntVector keyGroups, boolean continues) throws IOException {
        int count = piece.getRowCount();
        int row = 0;
        while (row < count) {
            int keyGroup = keyGroups.get(row);
            int first = row;
            while (row < count && keyGroups.get(row) == keyGroup) {
                row++;
            }
            if (spanning && keyGroup != next - 1) {
                throw new SidecarException(operator + ": the sidecar's last snapshot piece said key group " + (next - 1)
                        + " goes on, but the next piece starts with key group " + keyGroup);
            }
            if (!spanning) {
                start(keyGroup);
            }
            boolean goesOn = continues && row == count;
            boolean inPieces = spanning || goesOn;
            if (first == 0 && row == count) {
                write(piece, inPieces);
            } else {
                try (VectorSchemaRoot slice = piece.slice(first, row - first)) {
                    write(slice, inPieces);
                }
            }
            if (inPieces && !goesOn) {
                frames.endPieces(out, fingerprint);
            }
            spanning = goesOn;
            pieced |= inPieces;
        }
        entries += count;
    }

    /** Ends the last key group and writes an empty frame for each one after it in the range. */
    void finish() throws IOException {
        if (spanning) {
            throw new SidecarException(operator + ": the sidecar's last snapshot piece said key group " + (next - 1)
                    + " goes on in a next piece, but it was the last piece");
        }
        while (next <= range.getEndKeyGroup()) {
            out.startNewKeyGroup(next++);
            frames.write(out, fingerprint, null);
        }
    }

    /** Whether a key group spanned pieces (its frames have the state format {@link KeyGroupFrames#pieced()}). */
    boolean pieced() {
        return pieced;
    }

    /** The entries written so far. */
    long entries() {
        return entries;
    }

    private void write(VectorSchemaRoot rows, boolean inPieces) throws IOException {
        if (inPieces) {
            frames.writePiece(out, fingerprint, rows);
        } else {
            frames.write(out, fingerprint, rows);
        }
    }

    /** Starts {@code keyGroup}, after an empty frame for each key group before it not written yet. */
    private void start(int keyGroup) throws IOException {
        if (keyGroup < next || keyGroup > range.getEndKeyGroup()) {
            throw new SidecarException(operator + ": the sidecar's snapshot holds key group " + keyGroup
                    + " out of order or outside this subtask's key groups " + range);
        }
        while (next < keyGroup) {
            out.startNewKeyGroup(next++);
            frames.write(out, fingerprint, null);
        }
        out.startNewKeyGroup(next++);
    }
}
