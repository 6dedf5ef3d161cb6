package org.flinkaccelerator.runtime.state;

import org.apache.arrow.vector.VectorSchemaRoot;

/** The calls through which a {@link SidecarStateOperator} checkpoints and restores its stage's state. */
public interface SidecarStateCalls {
    /** The snapshot's column of each entry's key group. */
    String KEY_GROUP = "$key_group";

    /** The whole state, grouped by key group in ascending order; the caller closes it. */
    VectorSchemaRoot snapshot();

    /** Restores snapshot rows written in {@code format} for {@code fingerprint} into a subtask of key groups {@code first}..{@code last}. */
    void restore(VectorSchemaRoot entries, int first, int last, int format, String fingerprint);

    /** Entries in the sidecar's state after the last call (a gauge). */
    long stateEntries();

    /** Approximate bytes of the sidecar's state after the last call (a gauge). */
    long stateBytes();
}
