package org.flinkaccelerator.runtime.dedup;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated deduplication's state in Flink's checkpoints: one frame (magic {@code FADD})
 * per key group of the raw keyed state, whose rows are the key group, the key's bytes and, unless
 * the deduplication keeps a flag only, the kept row with its RowKind; and a marker
 * {@code "<version>:<fingerprint>"} in operator union list state ({@link VersionedStateFormat}).
 */
public final class DedupStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-deduplicate-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'D', 'D'}, VERSION,
            MARKER_STATE, "deduplication", "accelerator.deduplicate.enabled", "keys, order or row",
            DedupStateException::new).format();

    private DedupStateFormat() {}
}
