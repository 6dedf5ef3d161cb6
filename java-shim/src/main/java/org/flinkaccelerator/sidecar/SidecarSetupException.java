package org.flinkaccelerator.sidecar;

/**
 * The sidecar cannot start with this configuration: the interpreter in
 * {@code accelerator.python.executable} does not run, lacks the accelerator package, or has a
 * version that speaks another protocol. Restarting does not help; the message says what to install.
 */
public final class SidecarSetupException extends SidecarException {
    public SidecarSetupException(String message) {
        super(message);
    }

    public SidecarSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
