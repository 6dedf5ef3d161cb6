package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

class FlinkVersionSupportTest {

    @Test
    void buildInfoComesFromTheJarsResource() {
        assertEquals("2.2.1", BuildInfo.flinkVersion());
        assertEquals(List.of("2.2.0", "2.2.1", "2.3.0"), BuildInfo.supportedFlinkVersions());
        assertTrue(BuildInfo.version().matches("\\d+\\.\\d+\\.\\d+.*"), BuildInfo.version());
    }

    @Test
    void acceptsExactlyTheReleasesTheSuitePassedOn() {
        assertTrue(FlinkVersionSupport.isSupported("2.2.0"));
        assertTrue(FlinkVersionSupport.isSupported("2.2.1"));
        assertTrue(FlinkVersionSupport.isSupported("2.3.0"));
    }

    @Test
    void rejectsOtherReleasesSnapshotsAndGarbage() {
        for (String version : new String[] {"2.2.2", "2.2-SNAPSHOT", "2.3.1", "2.3-SNAPSHOT", "2.1.1", "1.20.1",
                "22.1", "2.2.1 ", "<unknown>", "", null}) {
            assertFalse(FlinkVersionSupport.isSupported(version), String.valueOf(version));
        }
    }

    @Test
    void theFlinkWeCompileAgainstIsSupported() {
        assertTrue(FlinkVersionSupport.isSupported(EnvironmentInformation.getVersion()),
                EnvironmentInformation.getVersion());
    }
}
