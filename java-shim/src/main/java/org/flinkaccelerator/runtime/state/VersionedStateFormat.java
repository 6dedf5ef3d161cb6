package org.flinkaccelerator.runtime.state;

import java.util.function.BiFunction;

/**
 * The checks of one stateful operator's {@link SidecarStateFormat}: a newer or unknown format
 * version, another query's state (fingerprint) and state written by stock Flink (no marker) each
 * fail with what to do.
 *
 * @param magic the frames' magic (4 bytes)
 * @param version the state format this jar writes and reads
 * @param markerState the operator union list state holding the marker
 * @param operator the operator as messages name it ("group aggregate")
 * @param option the option that turns it off ("accelerator.group-aggregate.enabled")
 * @param parts what the fingerprint covers, as messages name it ("keys or aggregates")
 * @param failure the operator's exception for state it cannot restore: (message, cause or null)
 */
public record VersionedStateFormat(byte[] magic, int version, String markerState, String operator, String option,
        String parts, BiFunction<String, Throwable, RuntimeException> failure) {

    public SidecarStateFormat format() {
        return new SidecarStateFormat(frames(), markerState, this::checkMarkers);
    }

    private KeyGroupFrames frames() {
        return new KeyGroupFrames(magic, version, operator, this::checkVersion, this::checkFingerprint, failure);
    }

    /** Fails unless the restored markers (the union of all subtasks') say this jar and this query wrote the state. */
    public void checkMarkers(Iterable<String> markers, String fingerprint) {
        boolean any = false;
        for (String marker : markers) {
            any = true;
            int colon = marker.indexOf(':');
            try {
                frames().checkFormat(Integer.parseInt(marker.substring(0, Math.max(colon, 0))));
            } catch (NumberFormatException e) {
                throw failure.apply("the accelerated " + operator + " state's format marker '" + marker
                        + "' is not '<version>:<fingerprint>'", e);
            }
            checkFingerprint(marker.substring(colon + 1), fingerprint);
        }
        if (!any) {
            throw failure.apply("this state was written by stock Flink's " + operator + " (or by a job without the"
                    + " accelerator): it has no " + markerState + " marker; restore it with " + option + ": false"
                    + " (Flink's own " + operator + " reads it), or start without state", null);
        }
    }

    private void checkVersion(int written) {
        if (written > version) {
            throw failure.apply("the accelerated " + operator + " state was written by a newer flink-accelerator"
                    + " (state format " + written + "); this jar reads format " + version + ": restore it with the"
                    + " jar that wrote it, or start without state", null);
        }
        if (written < 1) {
            throw failure.apply("the accelerated " + operator + " state has format " + written
                    + ", which no flink-accelerator writes", null);
        }
    }

    private void checkFingerprint(String written, String expected) {
        if (!written.equals(expected)) {
            throw failure.apply("the query's " + operator + " changed (" + parts + "); this state cannot be restored"
                    + " into it (state fingerprint " + written + ", the query's " + expected + "): start the job"
                    + " without state, or restore it into the query that wrote it", null);
        }
    }
}
