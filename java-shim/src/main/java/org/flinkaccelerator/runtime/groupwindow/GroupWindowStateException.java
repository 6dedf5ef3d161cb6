package org.flinkaccelerator.runtime.groupwindow;

/** State that an accelerated group window aggregate cannot restore, saying what to do ({@link GroupWindowStateFormat}). */
public final class GroupWindowStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GroupWindowStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
