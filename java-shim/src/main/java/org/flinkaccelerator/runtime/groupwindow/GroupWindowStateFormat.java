package org.flinkaccelerator.runtime.groupwindow;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated group window aggregate's state in Flink's checkpoints: one frame (magic
 * {@code FAGW}) per key group of the raw keyed state, whose rows are each key's windows, panes or
 * sessions with their accumulators and whether their timer is registered; and a marker
 * {@code "<version>:<fingerprint>"} in operator union list state ({@link VersionedStateFormat}).
 * The timers themselves are Flink's keyed state.
 */
public final class GroupWindowStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-group-window-aggregate-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'G', 'W'}, VERSION,
            MARKER_STATE, "group window aggregate", "accelerator.group-window-aggregate.enabled",
            "keys, window or aggregates", GroupWindowStateException::new).format();

    private GroupWindowStateFormat() {}
}
