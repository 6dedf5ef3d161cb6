package org.flinkaccelerator.runtime.rank;

/** State that an accelerated Top-N cannot restore, saying what to do ({@link RankStateFormat}). */
public final class RankStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RankStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
