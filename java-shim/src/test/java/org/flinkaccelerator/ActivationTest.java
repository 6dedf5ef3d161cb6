package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ActivationTest {

    @Test
    void onlyTheFlagOnASupportedFlinkRewrites() {
        assertEquals(Activation.ENABLED, Activation.decide("2.2.1", true));
        assertEquals(Activation.DISABLED, Activation.decide("2.2.1", false));
        assertFalse(Activation.ENABLED.keepsStockPlan());
        assertTrue(Activation.DISABLED.keepsStockPlan());
    }

    @Test
    void anotherFlinkLineKeepsStockWhateverTheFlag() {
        for (String version : new String[] {"2.3.1", "2.1.1", "1.20.1", "<unknown>", null}) {
            assertEquals(Activation.UNSUPPORTED_FLINK, Activation.decide(version, true), version);
            assertEquals(Activation.UNSUPPORTED_FLINK, Activation.decide(version, false), version);
        }
        assertTrue(Activation.UNSUPPORTED_FLINK.keepsStockPlan());
    }

    @Test
    void logLinesNameBothVersionsAndTheFlagValue() {
        String on = ActivationLog.message(Activation.ENABLED, "2.2.1");
        assertTrue(on.contains("flink-accelerator " + BuildInfo.version()), on);
        assertTrue(on.contains("on Flink 2.2.1"), on);
        assertTrue(on.contains("accelerator.enabled=true"), on);
        assertTrue(ActivationLog.message(Activation.DISABLED, "2.2.1").contains("accelerator.enabled=false"));
        String other = ActivationLog.message(Activation.UNSUPPORTED_FLINK, "1.20.1");
        assertTrue(other.contains("on Flink 1.20.1") && other.contains("INACTIVE"), other);
        assertTrue(other.contains("supports Flink 2.2.0, 2.2.1, 2.3.0 only"), other);
    }

    @Test
    void eachOutcomeIsLoggedOncePerProcess() {
        ActivationLog.reset();
        assertTrue(ActivationLog.report(Activation.DISABLED, "2.2.1"));
        assertFalse(ActivationLog.report(Activation.DISABLED, "2.2.1"));
        assertTrue(ActivationLog.report(Activation.ENABLED, "2.2.1"));
        assertFalse(ActivationLog.report(Activation.ENABLED, "2.2.1"));
        assertFalse(ActivationLog.report(Activation.DISABLED, "2.2.1"));
        ActivationLog.reset();
    }
}
