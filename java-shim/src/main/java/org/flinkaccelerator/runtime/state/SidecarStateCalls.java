package org.flinkaccelerator.runtime.state;

import java.util.HashMap;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.runtime.windowagg.WindowAggCalls;

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

    /**
     * restore request: "1" when the call's last key group goes on in the next restore call (its
     * entries were cut into calls by rows, or spanned snapshot pieces), else "0"; the sidecar then
     * holds back the entries of the call's last key until the rest of them arrive
     * (accelerator/sidecar/restore_pieces.py).
     */
    String RESTORE_CONTINUES = "accelerator.restore_continues";

    /**
     * What a {@code restore} call says besides its entries: the subtask's key groups {@code
     * first}..{@code last}, the state format and the descriptor's fingerprint the entries were
     * written in and for, and whether the key group of the last entry goes on in the next call.
     */
    record Restore(int first, int last, int format, String fingerprint, boolean continues) {
        /** The call's metadata (the window aggregate's call protocol). */
        public Map<String, String> arguments() {
            Map<String, String> out = new HashMap<>();
            out.put(WindowAggCalls.KEY_GROUP_START, Integer.toString(first));
            out.put(WindowAggCalls.KEY_GROUP_END, Integer.toString(last));
            out.put(WindowAggCalls.STATE_FORMAT, Integer.toString(format));
            out.put(WindowAggCalls.STATE_FINGERPRINT, fingerprint);
            out.put(RESTORE_CONTINUES, continues ? "1" : "0");
            return out;
        }
    }

    /** Restores snapshot entries into the sidecar's state, as {@code restore} describes them. */
    void restore(VectorSchemaRoot entries, Restore restore);

    /** Entries in the sidecar's state after the last call (a gauge). */
    long stateEntries();

    /** Approximate bytes of the sidecar's state after the last call (a gauge). */
    long stateBytes();
}
