package org.flinkaccelerator.runtime;

import java.time.Duration;

/** The checks every accelerated operator's spec makes on the sidecar settings it carries, with the option each names. */
public final class SidecarLimits {

    private SidecarLimits() {}

    /** Fails with the option's name when a batch bound, the Arrow limit or the call timeout is out of range. */
    public static void check(int batchSize, long batchBytes, long arrowLimit, Duration sidecarTimeout) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("accelerator.batch.size must be at least 1, got " + batchSize);
        }
        if (batchBytes < 1) {
            throw new IllegalArgumentException("accelerator.batch.max-bytes must be at least 1 byte, got " + batchBytes);
        }
        if (arrowLimit < 1) {
            throw new IllegalArgumentException("accelerator.memory.arrow-limit must be at least 1 byte, got " + arrowLimit);
        }
        if (sidecarTimeout.isNegative() || sidecarTimeout.isZero() || sidecarTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("accelerator.sidecar.timeout must be between 1 ms and 24 days, got "
                    + sidecarTimeout);
        }
    }
}
