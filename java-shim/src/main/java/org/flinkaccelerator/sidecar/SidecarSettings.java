package org.flinkaccelerator.sidecar;

import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;
import org.flinkaccelerator.AcceleratorOptions;

/**
 * How to start and supervise one sidecar.
 *
 * @param pythonExecutable interpreter with the accelerator package ({@code accelerator.python.executable})
 * @param callTimeout longest a control call may take before the sidecar counts as hung and is killed
 * @param startTimeout longest the sidecar may take to start and connect back
 * @param initialRegionBytes starting size of the request region (the sidecar sizes its response region);
 *     it grows as a batch needs and shrinks back after it
 */
public record SidecarSettings(String pythonExecutable, Duration callTimeout, Duration startTimeout,
        long initialRegionBytes) {
    public static final Duration DEFAULT_CALL_TIMEOUT = AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue();
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
    public static final long DEFAULT_INITIAL_REGION_BYTES = 4L << 20;
    /**
     * Bytes per row a request batch holds beside its message bytes, from above: a value's offset
     * and validity bit, and the metadata columns a segment reads (a timestamp, a partition, ...).
     */
    static final long REQUEST_BYTES_PER_ROW = 32;
    /** Room for the IPC framing and the message that takes a batch past its byte limit. */
    static final long REQUEST_SLACK_BYTES = 256L << 10;

    public SidecarSettings {
        if (callTimeout.isNegative() || callTimeout.isZero() || callTimeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the sidecar call timeout must be between 1 ms and 24 days, got "
                    + callTimeout);
        }
    }

    /** Settings from the Flink configuration; start timeout and region size at their defaults. */
    public static SidecarSettings from(ReadableConfig config) {
        return new SidecarSettings(config.get(AcceleratorOptions.PYTHON_EXECUTABLE),
                config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                DEFAULT_START_TIMEOUT, DEFAULT_INITIAL_REGION_BYTES);
    }

    /**
     * The request region's starting size for batches of up to {@code batchRows} rows that are sent
     * once their bytes reach {@code batchBytes} (accelerator.batch.size and .max-bytes): a full
     * batch fits it as it is. A region that starts smaller grows for every full batch and shrinks
     * after it, so each batch is written through a fresh mapping whose pages fault in again.
     */
    public static long requestRegionBytes(long batchBytes, int batchRows) {
        return Math.max(DEFAULT_INITIAL_REGION_BYTES,
                batchBytes + REQUEST_BYTES_PER_ROW * batchRows + REQUEST_SLACK_BYTES);
    }

    public SidecarSettings withCallTimeout(Duration timeout) {
        return new SidecarSettings(pythonExecutable, timeout, startTimeout, initialRegionBytes);
    }
}
