package org.flinkaccelerator.runtime.groupagg;

import org.flinkaccelerator.runtime.state.KeyGroupFrames;
import org.flinkaccelerator.runtime.state.SidecarStateFormat;

/**
 * The accelerated group aggregate's state in Flink's checkpoints: one {@link KeyGroupFrames} frame
 * (magic {@code FAGA}) per key group of the raw keyed state, whose rows are the key group, the
 * key's bytes and its accumulators, and a marker {@code "<version>:<fingerprint>"} in operator
 * union list state; a mismatch fails saying what to do.
 */
public final class GroupAggStateFormat {
    /** The state format this jar writes and reads. */
    public static final int VERSION = 1;
    /** Name of the operator union list state holding the marker. */
    public static final String MARKER_STATE = "accelerator-group-agg-format";

    static final KeyGroupFrames FRAMES = new KeyGroupFrames(new byte[] {'F', 'A', 'G', 'A'}, VERSION,
            "group aggregate", GroupAggStateFormat::checkVersion, GroupAggStateFormat::checkFingerprint,
            GroupAggStateException::new);
    static final SidecarStateFormat FORMAT = new SidecarStateFormat(FRAMES, MARKER_STATE,
            GroupAggStateFormat::checkMarkers);

    private GroupAggStateFormat() {}

    public static String marker(String fingerprint) {
        return FORMAT.marker(fingerprint);
    }

    /** Fails unless the restored markers (the union of all subtasks') say this jar and this query wrote the state. */
    public static void checkMarkers(Iterable<String> markers, String fingerprint) {
        boolean any = false;
        for (String marker : markers) {
            any = true;
            int colon = marker.indexOf(':');
            try {
                checkVersion(Integer.parseInt(marker.substring(0, Math.max(colon, 0))));
            } catch (NumberFormatException e) {
                throw new GroupAggStateException("the accelerated group aggregate state's format marker '" + marker
                        + "' is not '<version>:<fingerprint>'", e);
            }
            checkFingerprint(marker.substring(colon + 1), fingerprint);
        }
        if (!any) {
            throw new GroupAggStateException("this state was written by stock Flink's group aggregate (or by a job"
                    + " without the accelerator): it has no " + MARKER_STATE + " marker; restore it with"
                    + " accelerator.group-aggregate.enabled: false (Flink's own group aggregate reads it), or start"
                    + " without state");
        }
    }

    private static void checkVersion(int version) {
        if (version > VERSION) {
            throw new GroupAggStateException("the accelerated group aggregate state was written by a newer"
                    + " flink-accelerator (state format " + version + "); this jar reads format " + VERSION
                    + ": restore it with the jar that wrote it, or start without state");
        }
        if (version < 1) {
            throw new GroupAggStateException("the accelerated group aggregate state has format " + version
                    + ", which no flink-accelerator writes");
        }
    }

    private static void checkFingerprint(String written, String expected) {
        if (!written.equals(expected)) {
            throw new GroupAggStateException("the query's group aggregate changed (keys or aggregates); this state"
                    + " cannot be restored into it (state fingerprint " + written + ", the query's " + expected
                    + "): start the job without state, or restore it into the query that wrote it");
        }
    }
}
