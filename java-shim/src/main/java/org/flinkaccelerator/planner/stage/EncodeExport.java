package org.flinkaccelerator.planner.stage;

import java.util.List;

/**
 * A Kafka sink and the last {@code calcs} Calcs before it exported as an encode stage, or, when
 * {@code export} is not accelerated, the reasons not even the sink can run accelerated.
 * {@code stoppedBy} says why the Calc before the first exported one stays stock (empty when every
 * Calc of the chain is exported, or none is).
 */
public record EncodeExport(StageExport export, int calcs, List<FallbackReason> stoppedBy) {
    public EncodeExport {
        stoppedBy = List.copyOf(stoppedBy);
    }
}
