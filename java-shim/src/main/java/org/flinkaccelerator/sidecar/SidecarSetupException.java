package org.flinkaccelerator.sidecar;

/**
 * The sidecar cannot start with this configuration: the interpreter in
 * {@code accelerator.python.executable} does not run, lacks the accelerator package, has a
 * version that speaks another protocol, or offers a response region the JVM does not trust.
 * Restarting does not help; the message says what to install or check.
 */
public final class SidecarSetupException extends SidecarException {
    public SidecarSetupException(String message) {
        super(message);
    }

    public SidecarSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
