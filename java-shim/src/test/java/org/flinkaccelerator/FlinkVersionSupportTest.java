package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

/** The gate of either Flink line's jar; what each line's jar accepts is in its own FlinkLineTest. */
class FlinkVersionSupportTest {

    @Test
    void buildInfoComesFromTheJarsResource() {
        assertTrue(BuildInfo.version().matches("\\d+\\.\\d+\\.\\d+.*"), BuildInfo.version());
        assertTrue(BuildInfo.supportedFlinkVersions().contains(BuildInfo.flinkVersion()), BuildInfo.flinkVersion());
    }

    @Test
    void rejectsReleasesOfNeitherLineSnapshotsAndGarbage() {
        for (String version : new String[] {"2.2.2", "2.2-SNAPSHOT", "2.3.1", "2.3-SNAPSHOT", "2.1.1", "1.19.3",
                "1.20-SNAPSHOT", "22.1", "2.2.1 ", "1.20.3 ", "<unknown>", "", null}) {
            assertFalse(FlinkVersionSupport.isSupported(version), String.valueOf(version));
        }
    }

    @Test
    void theFlinkWeCompileAgainstIsSupported() {
        assertTrue(FlinkVersionSupport.isSupported(EnvironmentInformation.getVersion()),
                EnvironmentInformation.getVersion());
    }
}
