package org.flinkaccelerator.sidecar;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a starting sidecar calls on the JVM: the py4j entry point. Python first compares
 * {@link #protocolVersion()}, attaches to {@link #requestRegion()}, then hands over its callback
 * port, its response region and its {@link SidecarControl} with {@link #attach}.
 */
public final class SidecarRendezvous {
    /** What the sidecar reported when it attached. */
    public record Attachment(int callbackPort, Path responseRegion, String acceleratorVersion,
            SidecarControl control) {}

    private final Path requestRegion;
    private final CountDownLatch attached = new CountDownLatch(1);
    private volatile Attachment attachment;

    SidecarRendezvous(Path requestRegion) {
        this.requestRegion = requestRegion;
    }

    public int protocolVersion() {
        return SidecarControl.PROTOCOL_VERSION;
    }

    public String requestRegion() {
        return requestRegion.toString();
    }

    public void attach(int callbackPort, String responseRegion, String acceleratorVersion, SidecarControl control) {
        if (attachment == null) {
            attachment = new Attachment(callbackPort, Path.of(responseRegion), acceleratorVersion, control);
            attached.countDown();
        }
    }

    /** The attachment, or null if the sidecar has not attached within {@code wait}. */
    Attachment await(Duration wait) throws InterruptedException {
        return attached.await(wait.toMillis(), TimeUnit.MILLISECONDS) ? attachment : null;
    }
}
