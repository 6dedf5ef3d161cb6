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
 * @param initialRegionBytes starting size of each shared-memory region; regions grow as batches need
 */
public record SidecarSettings(String pythonExecutable, Duration callTimeout, Duration startTimeout,
        long initialRegionBytes) {
    public static final Duration DEFAULT_CALL_TIMEOUT = AcceleratorOptions.SIDECAR_TIMEOUT.defaultValue();
    public static final Duration DEFAULT_START_TIMEOUT = Duration.ofSeconds(60);
    public static final long DEFAULT_INITIAL_REGION_BYTES = 4L << 20;

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

    public SidecarSettings withCallTimeout(Duration timeout) {
        return new SidecarSettings(pythonExecutable, timeout, startTimeout, initialRegionBytes);
    }
}
