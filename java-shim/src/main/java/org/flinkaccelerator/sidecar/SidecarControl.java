package org.flinkaccelerator.sidecar;

/**
 * The control calls the JVM makes on the Python sidecar. Implemented in Python
 * ({@code accelerator/sidecar/control.py}) and reached through py4j, which calls methods by name:
 * renaming one here means renaming it there.
 *
 * <p>Calls that can fail return {@link #FAILED} instead of throwing across py4j, and the sidecar
 * keeps a structured reply (JSON: reason, row, Python traceback summary) for {@link #lastError()}.
 */
public interface SidecarControl {
    /** Version of these calls and of the shared-region layout; both sides refuse any other. */
    int PROTOCOL_VERSION = 2;

    long FAILED = -1;

    int protocolVersion();

    /** Creates the stage a descriptor (JSON) describes; returns its id, or {@link #FAILED}. */
    long open(String descriptorJson);

    /**
     * Runs stage {@code stageId} on request batch {@code sequence}; returns the length of the
     * response body committed under the same sequence, or {@link #FAILED}. An answer that does
     * not fit the response region as it is is not written: the sidecar keeps a copy of its own
     * (the request region may shrink now) and returns minus the region size it needs, a value
     * below {@link #FAILED}; {@link #writeKeptAnswer} writes it.
     */
    long process(long stageId, long sequence);

    /**
     * Grows the response region to {@code regionSize} bytes and writes the answer {@link #process}
     * kept for {@code sequence} there; returns its length, or {@link #FAILED}.
     */
    long writeKeptAnswer(long sequence, long regionSize);

    /** Shrinks the response region back to its initial size: the JVM has copied the answer out. */
    void shrinkResponses();

    void close(long stageId);

    /** The JSON reply of the last failed call, or an empty string; the sidecar then forgets it. */
    String lastError();

    /** Asks the sidecar to remove its region files and exit. */
    void shutdown();
}
