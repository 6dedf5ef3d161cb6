package org.flinkaccelerator.sidecar;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a starting sidecar calls on the JVM: the py4j entry point. Python first compares
 * {@link #protocolVersion()}, attaches to {@link #requestRegion()}, then hands over its callback
 * port, its response region and its {@link SidecarControl} with {@link #attach}. A response region
 * that fails {@link ResponseRegionCheck} is refused: the sidecar's call fails and so does the start.
 */
public final class SidecarRendezvous {
    /** What the sidecar reported when it attached; its response region passed {@link ResponseRegionCheck}. */
    public record Attachment(int callbackPort, Path responseRegion, String acceleratorVersion,
            SidecarControl control) {}

    private final Path requestRegion;
    private final CountDownLatch attached = new CountDownLatch(1);
    private volatile Attachment attachment;
    private volatile SidecarSetupException refusal;

    SidecarRendezvous(Path requestRegion) {
        this.requestRegion = requestRegion;
    }

    public int protocolVersion() {
        return SidecarControl.PROTOCOL_VERSION;
    }

    public String requestRegion() {
        return requestRegion.toString();
    }

    /** Only the first call counts; a refused response region fails it and every later {@link #await}. */
    public synchronized void attach(int callbackPort, String responseRegion, String acceleratorVersion,
            SidecarControl control) {
        if (attached.getCount() == 0) {
            return;
        }
        try {
            Path region = ResponseRegionCheck.trusted(responseRegion, requestRegion);
            attachment = new Attachment(callbackPort, region, acceleratorVersion, control);
        } catch (SidecarSetupException e) {
            refusal = e;
            throw e;
        } finally {
            attached.countDown();
        }
    }

    /**
     * The attachment, or null if the sidecar has not attached within {@code wait}; throws the
     * refusal if its response region was refused.
     */
    Attachment await(Duration wait) throws InterruptedException {
        if (!attached.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
            return null;
        }
        if (refusal != null) {
            throw refusal;
        }
        return attachment;
    }
}
