package org.flinkaccelerator.runtime.groupagg;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated group aggregate's state in Flink's checkpoints: one frame (magic {@code FAGA})
 * per key group of the raw keyed state, whose rows are the key group, the key's bytes and its
 * accumulators, and a marker {@code "<version>:<fingerprint>"} in operator union list state; a
 * mismatch fails saying what to do ({@link VersionedStateFormat}).
 */
public final class GroupAggStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 2;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-group-agg-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'G', 'A'}, VERSION,
            MARKER_STATE, "group aggregate", "accelerator.group-aggregate.enabled", "keys or aggregates",
            GroupAggStateException::new).format();

    private GroupAggStateFormat() {}
}
