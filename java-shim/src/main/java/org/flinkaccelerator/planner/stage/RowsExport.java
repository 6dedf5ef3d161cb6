package org.flinkaccelerator.planner.stage;

import java.util.List;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * A Kafka source and the first {@code calcs} Calcs after it exported as a rows stage, or, when
 * {@code export} is not accelerated, the reasons not even the source can run accelerated.
 * {@code stoppedBy} says why the Calc after the last exported one stays stock (empty when every
 * Calc of the chain is exported, or none is). {@code watermarks}: how the stage generates the
 * source's watermarks, or null when the source has none.
 */
public record RowsExport(StageExport export, int calcs, List<FallbackReason> stoppedBy, WatermarkSpec watermarks) {
    public RowsExport {
        stoppedBy = List.copyOf(stoppedBy);
    }
}
