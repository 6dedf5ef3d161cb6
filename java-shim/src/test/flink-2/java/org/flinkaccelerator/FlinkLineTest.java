package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The 2.x jar: built against 2.2.1, hooks 2.2.0, 2.2.1 and 2.3.0, and sends 1.20 to the 1.20 jar. */
class FlinkLineTest {
    private static final String OTHER_JAR = "flink-accelerator-" + BuildInfo.version() + "-flink-1.20.jar";

    @Test
    void acceptsExactlyTheReleasesTheSuitePassedOn() {
        assertEquals("2.2.1", BuildInfo.flinkVersion());
        assertEquals(List.of("2.2.0", "2.2.1", "2.3.0"), BuildInfo.supportedFlinkVersions());
        for (String version : new String[] {"2.2.0", "2.2.1", "2.3.0"}) {
            assertTrue(FlinkVersionSupport.isSupported(version), version);
        }
    }

    @Test
    void keepsThe120LineStockAndNamesItsJar() {
        assertEquals(OTHER_JAR, BuildInfo.otherLineJar());
        for (String version : new String[] {"1.20.0", "1.20.3", "1.20.5"}) {
            assertFalse(FlinkVersionSupport.isSupported(version), version);
            String warn = ActivationLog.message(Activation.UNSUPPORTED_FLINK, version);
            assertTrue(warn.contains("supports Flink 2.2.0, 2.2.1, 2.3.0 only"), warn);
            assertTrue(warn.contains("Flink " + version + " is served by the other jar of this release, " + OTHER_JAR
                    + ": put it into lib/"), warn);
        }
        assertFalse(ActivationLog.message(Activation.UNSUPPORTED_FLINK, "2.1.1").contains(OTHER_JAR));
    }
}
