package org.flinkaccelerator.runtime.join;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated join's state in Flink's checkpoints: one frame (magic {@code FAJN}) per key group
 * of the raw keyed state, whose rows are the key group, the input the row came from, how often it
 * came, its number of associations (an outer side's or a semi or anti join's left row's) and its
 * binary form (each key's rows of a side in the order the hashmap backend's restore re-inserts
 * them); and a marker {@code "<version>:<fingerprint>"} in operator union list
 * state ({@link VersionedStateFormat}). Version 3 added the numbers of associations; version 4
 * leaves out the rows' keys and fields, which version 3 wrote beside the binary form (over half of
 * the checkpoint's bytes): a restore makes them again from the binary form ({@link JoinStateRows}),
 * and takes a version 3 frame's as written.
 */
public final class JoinStateFormat {
    /** The state format this jar writes (it restores format 3 frames too). */
    public static final int VERSION = 4;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-join-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'J', 'N'}, VERSION,
            MARKER_STATE, "join", AcceleratedJoinOperator.OPTION, "keys, either input's row or the state backend",
            JoinStateException::new).format();

    private JoinStateFormat() {}
}
