package org.flinkaccelerator.runtime.windowagg;

import org.flinkaccelerator.runtime.state.KeyGroupFrames;
import org.flinkaccelerator.runtime.state.SidecarStateFormat;

/**
 * The accelerated window aggregate's state in Flink's checkpoints
 * (docs/design/stateful-window-aggregate.md §3.5): one frame per key group of the raw keyed state
 * and a marker in operator union list state, and the checks that turn a mismatch into an error
 * saying what to do.
 *
 * <p>Frames as {@link KeyGroupFrames} writes them, with magic {@code FAWA}.
 */
public final class WindowAggStateFormat {
    /** The state format this jar writes and reads (2: entries are slices and timers, as HOP windows need). */
    public static final int VERSION = 2;
    /** Name of the operator union list state holding the marker {@code "<version>:<fingerprint>"}. */
    public static final String MARKER_STATE = "accelerator-window-agg-format";

    static final byte[] MAGIC = {'F', 'A', 'W', 'A'};
    static final int HEADER_BYTES = KeyGroupFrames.HEADER_BYTES;
    private static final KeyGroupFrames FRAMES = new KeyGroupFrames(MAGIC, VERSION, "window",
            WindowAggStateFormat::checkVersion, WindowAggStateFormat::checkFingerprint,
            (message, cause) -> new WindowAggStateException(message, cause));
    static final SidecarStateFormat FORMAT = new SidecarStateFormat(FRAMES, MARKER_STATE,
            WindowAggStateFormat::checkMarkers);

    private WindowAggStateFormat() {}

    /** Fails unless the restored markers (the union of all subtasks') say this jar and this query wrote the state. */
    public static void checkMarkers(Iterable<String> markers, String fingerprint) {
        boolean any = false;
        for (String marker : markers) {
            any = true;
            int colon = marker.indexOf(':');
            int version;
            try {
                version = Integer.parseInt(marker.substring(0, Math.max(colon, 0)));
            } catch (NumberFormatException e) {
                throw new WindowAggStateException("the accelerated window state's format marker '" + marker
                        + "' is not '<version>:<fingerprint>'", e);
            }
            FRAMES.checkFormat(version);
            checkFingerprint(marker.substring(colon + 1), fingerprint);
        }
        if (!any) {
            throw new WindowAggStateException("this state was written by stock Flink's window aggregate (or by a job"
                    + " without the accelerator): it has no " + MARKER_STATE + " marker; restore it with"
                    + " accelerator.window-aggregate.enabled: false (Flink's own window aggregate reads it), or start"
                    + " without state");
        }
    }

    private static void checkVersion(int version) {
        if (version > VERSION) {
            throw new WindowAggStateException("the accelerated window state was written by a newer"
                    + " flink-accelerator (state format " + version + "); this jar reads format " + VERSION);
        }
        if (version == 1) {
            throw new WindowAggStateException("the accelerated window state was written by an older"
                    + " flink-accelerator (state format 1, windows without their timers); this jar reads format "
                    + VERSION + ": start the job without state, or restore it with the jar that wrote it");
        }
        if (version < 1) {
            throw new WindowAggStateException("the accelerated window state has format " + version
                    + ", which no flink-accelerator writes");
        }
    }

    private static void checkFingerprint(String written, String expected) {
        if (!written.equals(expected)) {
            throw new WindowAggStateException("the query's window aggregate changed (keys, aggregates or window);"
                    + " this state cannot be restored into it (state fingerprint " + written + ", the query's "
                    + expected + ")");
        }
    }
}
