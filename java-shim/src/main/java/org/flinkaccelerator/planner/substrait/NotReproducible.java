package org.flinkaccelerator.planner.substrait;

/**
 * Thrown while exporting a segment when some expression, type or option cannot be reproduced
 * exactly outside Flink; the message is the reason recorded for the segment's fallback.
 */
public final class NotReproducible extends RuntimeException {
    public NotReproducible(String reason) {
        super(reason, null, false, false);
    }
}
