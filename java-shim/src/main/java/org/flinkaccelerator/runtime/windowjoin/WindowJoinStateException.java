package org.flinkaccelerator.runtime.windowjoin;

/** State that an accelerated window join cannot restore, saying what to do ({@link WindowJoinStateFormat}). */
public final class WindowJoinStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WindowJoinStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
