package org.flinkaccelerator.runtime.join;

/** State that an accelerated join cannot restore, saying what to do ({@link JoinStateFormat}). */
public final class JoinStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public JoinStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
