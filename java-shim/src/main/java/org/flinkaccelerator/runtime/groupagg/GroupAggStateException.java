package org.flinkaccelerator.runtime.groupagg;

/** State that an accelerated group aggregate cannot restore, saying what to do ({@link GroupAggStateFormat}). */
public final class GroupAggStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public GroupAggStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
