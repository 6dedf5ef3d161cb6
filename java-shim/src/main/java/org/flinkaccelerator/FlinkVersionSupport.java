package org.flinkaccelerator;

/**
 * Decides whether the running Flink may be hooked. The planner hook depends on internal planner
 * classes, so it runs only on the releases the compatibility suite has passed on
 * ({@link BuildInfo#supportedFlinkVersions}); any other release keeps stock behaviour (and says so
 * once, naming those).
 */
public final class FlinkVersionSupport {
    private FlinkVersionSupport() {}

    /** True when {@code runningVersion} is exactly one of the supported releases. */
    public static boolean isSupported(String runningVersion) {
        return runningVersion != null && BuildInfo.supportedFlinkVersions().contains(runningVersion);
    }
}
