package org.flinkaccelerator;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/** What this jar is and which Flink releases it was built for, read from the jar itself. */
public final class BuildInfo {
    private static final Properties PROPERTIES = load();

    private BuildInfo() {}

    /** The accelerator's version; the sidecar must speak the same one. */
    public static String version() {
        return PROPERTIES.getProperty("version");
    }

    /** The Flink release the shim was compiled against. */
    public static String flinkVersion() {
        return PROPERTIES.getProperty("flink.version");
    }

    /** The Flink releases the planner hook runs on (the compatibility suite passed on each). */
    public static List<String> supportedFlinkVersions() {
        return List.of(PROPERTIES.getProperty("flink.supported.versions").split(","));
    }

    /** The file name of this release's jar for the other Flink line (1.20 for the 2.x jar, 2.x for the 1.20 jar). */
    public static String otherLineJar() {
        return PROPERTIES.getProperty("flink.other.line.jar");
    }

    /** The Flink releases {@link #otherLineJar} runs on. */
    public static List<String> otherLineFlinkVersions() {
        return List.of(PROPERTIES.getProperty("flink.other.line.versions").split(","));
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = BuildInfo.class.getResourceAsStream("/flink-accelerator.properties")) {
            if (in == null) {
                throw new IllegalStateException("flink-accelerator.properties missing from the jar");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
