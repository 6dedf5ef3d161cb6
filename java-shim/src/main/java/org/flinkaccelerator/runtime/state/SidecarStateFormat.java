package org.flinkaccelerator.runtime.state;

import java.util.function.BiConsumer;

/**
 * How one stateful operator's sidecar state sits in Flink's checkpoints: its {@link KeyGroupFrames}
 * in raw keyed state and a marker {@code "<state format>:<fingerprint>"} in the operator union list
 * state {@code markerState} (the frames' version, or {@link KeyGroupFrames#pieced()} when a key
 * group spanned snapshot pieces, so a jar that cannot read those refuses the state up front).
 *
 * @param checkMarkers throws, saying what to do, unless the restored markers (all subtasks') match the fingerprint
 */
public record SidecarStateFormat(KeyGroupFrames frames, String markerState,
        BiConsumer<Iterable<String>, String> checkMarkers) {
    public String marker(String fingerprint) {
        return marker(fingerprint, false);
    }

    /** The marker of a snapshot in which a key group spanned snapshot pieces ({@code pieced}) or none did. */
    public String marker(String fingerprint, boolean pieced) {
        return (pieced ? frames.pieced() : frames.version()) + ":" + fingerprint;
    }
}
