package org.flinkaccelerator.planner.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.junit.jupiter.api.Test;

/** The accelerated window aggregate calls Flink 2.2's window trigger, which 2.3 replaced. */
class WindowAggReleaseTest {

    @Test
    void runsOn22AndStaysStockOn23WithTheReason() {
        assertEquals(List.of(), WindowAggChecks.release("2.2.0"));
        assertEquals(List.of(), WindowAggChecks.release("2.2.1"));
        List<FallbackReason> on23 = WindowAggChecks.release("2.3.0");
        assertEquals(1, on23.size());
        assertTrue(on23.get(0).why().startsWith("Flink 2.3.0 has no TimeWindowUtil.getNextTriggerWatermark"),
                on23.get(0).why());
    }
}
