package org.flinkaccelerator.sidecar;

/**
 * The Python sidecar failed or cannot be reached. The task should fail so that Flink restarts it
 * from the last checkpoint; the message says what happened and what the sidecar printed last.
 */
public class SidecarException extends RuntimeException {
    public SidecarException(String message) {
        super(message);
    }

    public SidecarException(String message, Throwable cause) {
        super(message, cause);
    }
}
