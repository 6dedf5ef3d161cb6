package org.flinkaccelerator.runtime.state;

import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;

/** The calls through which a {@link SidecarStateOperator} checkpoints and restores its stage's state. */
public interface SidecarStateCalls {
    /** The snapshot's column of each entry's key group. */
    String KEY_GROUP = "$key_group";

    /**
     * snapshot request: the piece asked for (0 takes the checkpoint's snapshot) and the most Arrow
     * buffer bytes a piece holds; its answer: the count of pieces, and "1" when the piece's last key
     * group goes on in the next piece, else "0" (accelerator/sidecar/snapshot_pieces.py).
     */
    String SNAPSHOT_PIECE = "accelerator.snapshot_piece";
    String SNAPSHOT_PIECE_BYTES = "accelerator.snapshot_piece_bytes";
    String SNAPSHOT_PIECES = "accelerator.snapshot_pieces";
    String SNAPSHOT_CONTINUES = "accelerator.snapshot_continues";

    /**
     * Piece {@code piece} of the state's snapshot: its rows grouped by key group in ascending order,
     * at most {@code maxBytes} of them (a larger single entry alone), whole key groups unless one
     * alone is larger; piece 0 takes the snapshot. The caller closes it.
     */
    VectorSchemaRoot snapshot(int piece, long maxBytes);

    /** The arguments of a {@link #snapshot} call. */
    static Map<String, String> snapshotArguments(int piece, long maxBytes) {
        return Map.of(SNAPSHOT_PIECE, Integer.toString(piece), SNAPSHOT_PIECE_BYTES, Long.toString(maxBytes));
    }

    /** Restores snapshot rows written in {@code format} for {@code fingerprint} into a subtask of key groups {@code first}..{@code last}. */
    void restore(VectorSchemaRoot entries, int first, int last, int format, String fingerprint);

    /** Entries in the sidecar's state after the last call (a gauge). */
    long stateEntries();

    /** Approximate bytes of the sidecar's state after the last call (a gauge). */
    long stateBytes();
}
