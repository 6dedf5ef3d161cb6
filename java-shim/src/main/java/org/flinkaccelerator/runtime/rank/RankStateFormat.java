package org.flinkaccelerator.runtime.rank;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated Top-N's state in Flink's checkpoints: one frame (magic {@code FATN}) per key
 * group of the raw keyed state, whose rows are the key group, the key's bytes, the row's place in
 * the key's top rows and the row; and a marker {@code "<version>:<fingerprint>"} in operator union
 * list state ({@link VersionedStateFormat}).
 */
public final class RankStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-top-n-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'T', 'N'}, VERSION,
            MARKER_STATE, "Top-N", "accelerator.top-n.enabled", "keys, order, N or row",
            RankStateException::new).format();

    private RankStateFormat() {}
}
