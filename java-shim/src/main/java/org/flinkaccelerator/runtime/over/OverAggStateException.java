package org.flinkaccelerator.runtime.over;

/** State that an accelerated OVER aggregate cannot restore, saying what to do ({@link OverAggStateFormat}). */
public final class OverAggStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public OverAggStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
