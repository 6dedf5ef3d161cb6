package org.flinkaccelerator.runtime.windowjoin;

import org.flinkaccelerator.runtime.state.SidecarStateFormat;
import org.flinkaccelerator.runtime.state.VersionedStateFormat;

/**
 * The accelerated window join's state in Flink's checkpoints: one frame (magic {@code FAWJ}) per
 * key group of the raw keyed state, whose rows are the held input rows of that key group in
 * arrival order (key, key group, input, window end, timer time, the row's fields); and a marker
 * {@code "<version>:<fingerprint>"} in operator union list state ({@link VersionedStateFormat}).
 * The windows' timers are Flink's own, in its managed keyed state.
 */
public final class WindowJoinStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-window-join-format";

    static final SidecarStateFormat FORMAT = new VersionedStateFormat(new byte[] {'F', 'A', 'W', 'J'}, VERSION,
            MARKER_STATE, "window join", AcceleratedWindowJoinOperator.OPTION,
            "keys, windows or either input's row", WindowJoinStateException::new).format();

    private WindowJoinStateFormat() {}
}
