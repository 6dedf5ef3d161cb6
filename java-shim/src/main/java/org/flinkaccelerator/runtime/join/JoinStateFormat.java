package org.flinkaccelerator.runtime.join;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated join's state in Flink's checkpoints: one frame (magic {@code FAJN}) per key group
 * of the raw keyed state, whose rows are the key group, the key's bytes, the input the row came
 * from, how often it came, its number of associations (an outer side's), its binary form and its
 * fields (each key's rows of a side in the order the hashmap backend's restore re-inserts them; version
 * 3 added the numbers of associations); and a marker
 * {@code "<version>:<fingerprint>"} in operator union list state ({@link VersionedStateFormat}).
 */
public final class JoinStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 3;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-join-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'J', 'N'}, VERSION,
            MARKER_STATE, "join", AcceleratedJoinOperator.OPTION, "keys, either input's row or the state backend",
            JoinStateException::new).format();

    private JoinStateFormat() {}
}
