package org.flinkaccelerator.runtime.windowagg;

/**
 * State that an accelerated window aggregate cannot restore, saying what to do
 * (docs/design/stateful-window-aggregate.md §3.5).
 */
public final class WindowAggStateException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public WindowAggStateException(String message) {
        super(message);
    }

    public WindowAggStateException(String message, Throwable cause) {
        super(message, cause);
    }
}
