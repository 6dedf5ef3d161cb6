package org.flinkaccelerator.runtime.over;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated OVER aggregate's state in Flink's checkpoints: one frame (magic {@code FAOV})
 * per key group of the raw keyed state, whose rows are each key's accumulators and its held rows
 * with their timestamps; and a marker {@code "<version>:<fingerprint>"} in operator union list
 * state ({@link VersionedStateFormat}). The timers are Flink's keyed state.
 */
public final class OverAggStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-over-aggregate-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'O', 'V'}, VERSION,
            MARKER_STATE, "OVER aggregate", "accelerator.over-aggregate.enabled",
            "keys, frame, aggregates or row", OverAggStateException::new).format();

    private OverAggStateFormat() {}
}
