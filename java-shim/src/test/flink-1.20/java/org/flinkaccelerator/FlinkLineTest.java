package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The 1.20 jar: built against 1.20.3, hooks the 1.20 releases, and sends 2.x to the 2.x jar. */
class FlinkLineTest {
    private static final String OTHER_JAR = "flink-accelerator-" + BuildInfo.version() + ".jar";

    @Test
    void acceptsThe120Releases() {
        assertEquals("1.20.3", BuildInfo.flinkVersion());
        assertEquals(List.of("1.20.0", "1.20.1", "1.20.2", "1.20.3", "1.20.4", "1.20.5"),
                BuildInfo.supportedFlinkVersions());
        for (String version : BuildInfo.supportedFlinkVersions()) {
            assertTrue(FlinkVersionSupport.isSupported(version), version);
        }
    }

    @Test
    void keepsThe2LineStockAndNamesItsJar() {
        assertEquals(OTHER_JAR, BuildInfo.otherLineJar());
        for (String version : new String[] {"2.2.0", "2.2.1", "2.3.0"}) {
            assertFalse(FlinkVersionSupport.isSupported(version), version);
            String warn = ActivationLog.message(Activation.UNSUPPORTED_FLINK, version);
            assertTrue(warn.contains("supports Flink 1.20.0, 1.20.1, 1.20.2, 1.20.3, 1.20.4, 1.20.5 only"), warn);
            assertTrue(warn.contains("Flink " + version + " is served by the other jar of this release, " + OTHER_JAR
                    + ": put it into lib/"), warn);
        }
        assertFalse(ActivationLog.message(Activation.UNSUPPORTED_FLINK, "2.1.1").contains(OTHER_JAR));
    }
}
