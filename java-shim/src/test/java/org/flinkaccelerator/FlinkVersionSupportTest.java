package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.runtime.util.EnvironmentInformation;
import org.junit.jupiter.api.Test;

class FlinkVersionSupportTest {

    @Test
    void buildInfoComesFromTheJarsResource() {
        assertEquals("2.2.1", BuildInfo.flinkVersion());
        assertTrue(BuildInfo.version().matches("\\d+\\.\\d+\\.\\d+.*"), BuildInfo.version());
    }

    @Test
    void acceptsPatchReleasesOfTheBuildLine() {
        assertTrue(FlinkVersionSupport.isSupported("2.2.1"));
        assertTrue(FlinkVersionSupport.isSupported("2.2.0"));
        assertTrue(FlinkVersionSupport.isSupported("2.2-SNAPSHOT"));
    }

    @Test
    void rejectsOtherLinesAndGarbage() {
        assertFalse(FlinkVersionSupport.isSupported("2.1.1"));
        assertFalse(FlinkVersionSupport.isSupported("2.3.0"));
        assertFalse(FlinkVersionSupport.isSupported("1.20.1"));
        assertFalse(FlinkVersionSupport.isSupported("22.1"));
        assertFalse(FlinkVersionSupport.isSupported("<unknown>"));
        assertFalse(FlinkVersionSupport.isSupported(null));
    }

    @Test
    void theFlinkWeCompileAgainstIsSupported() {
        assertTrue(FlinkVersionSupport.isSupported(EnvironmentInformation.getVersion()),
                EnvironmentInformation.getVersion());
    }
}
