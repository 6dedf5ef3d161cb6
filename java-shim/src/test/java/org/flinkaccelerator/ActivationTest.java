package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ActivationTest {

    private static final String SUPPORTED = BuildInfo.flinkVersion();

    @Test
    void onlyTheFlagOnASupportedFlinkRewrites() {
        assertEquals(Activation.ENABLED, Activation.decide(SUPPORTED, true));
        assertEquals(Activation.DISABLED, Activation.decide(SUPPORTED, false));
        assertFalse(Activation.ENABLED.keepsStockPlan());
        assertTrue(Activation.DISABLED.keepsStockPlan());
    }

    @Test
    void anotherFlinkLineKeepsStockWhateverTheFlag() {
        for (String version : new String[] {"2.3.1", "2.1.1", "1.19.3", "<unknown>", null}) {
            assertEquals(Activation.UNSUPPORTED_FLINK, Activation.decide(version, true), version);
            assertEquals(Activation.UNSUPPORTED_FLINK, Activation.decide(version, false), version);
        }
        assertTrue(Activation.UNSUPPORTED_FLINK.keepsStockPlan());
    }

    @Test
    void logLinesNameBothVersionsAndTheFlagValue() {
        String on = ActivationLog.message(Activation.ENABLED, SUPPORTED);
        assertTrue(on.contains("flink-accelerator " + BuildInfo.version()), on);
        assertTrue(on.contains("on Flink " + SUPPORTED), on);
        assertTrue(on.contains("accelerator.enabled=true"), on);
        assertTrue(ActivationLog.message(Activation.DISABLED, SUPPORTED).contains("accelerator.enabled=false"));
        String other = ActivationLog.message(Activation.UNSUPPORTED_FLINK, "1.19.3");
        assertTrue(other.contains("on Flink 1.19.3") && other.contains("INACTIVE"), other);
        assertTrue(other.contains("supports Flink " + String.join(", ", BuildInfo.supportedFlinkVersions()) + " only"),
                other);
        assertTrue(other.endsWith("Run one of those releases to accelerate."), other);
    }

    @Test
    void eachOutcomeIsLoggedOncePerProcess() {
        ActivationLog.reset();
        assertTrue(ActivationLog.report(Activation.DISABLED, SUPPORTED));
        assertFalse(ActivationLog.report(Activation.DISABLED, SUPPORTED));
        assertTrue(ActivationLog.report(Activation.ENABLED, SUPPORTED));
        assertFalse(ActivationLog.report(Activation.ENABLED, SUPPORTED));
        assertFalse(ActivationLog.report(Activation.DISABLED, SUPPORTED));
        ActivationLog.reset();
    }
}
