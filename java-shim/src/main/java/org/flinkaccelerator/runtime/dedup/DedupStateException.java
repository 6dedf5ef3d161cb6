package org.flinkaccelerator.runtime.dedup;

/** State that an accelerated deduplication cannot restore, saying what to do ({@link DedupStateFormat}). */
public final class DedupStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public DedupStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
