package org.flinkaccelerator.runtime.state;

import java.nio.ByteBuffer;

/**
 * A fired window of an {@link EventTimeSidecarOperator} whose timers are namespaced by the window
 * end (the window aggregate, the window join): the key's bytes and the window end, by which the
 * timer looks up its rows in the sidecar's fired answer.
 */
public record FiredKey(ByteBuffer key, long end) {}
