package org.flinkaccelerator.runtime.state;

import java.util.function.BiConsumer;

/**
 * How one stateful operator's sidecar state sits in Flink's checkpoints: its {@link KeyGroupFrames}
 * in raw keyed state and a marker {@code "<version>:<fingerprint>"} in the operator union list
 * state {@code markerState}.
 *
 * @param checkMarkers throws, saying what to do, unless the restored markers (all subtasks') match the fingerprint
 */
public record SidecarStateFormat(KeyGroupFrames frames, String markerState,
        BiConsumer<Iterable<String>, String> checkMarkers) {
    public String marker(String fingerprint) {
        return frames.version() + ":" + fingerprint;
    }
}
