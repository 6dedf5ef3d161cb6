package org.flinkaccelerator.planner.stage;

import java.util.BitSet;
import java.util.List;

/**
 * A Kafka sink and the last {@code calcs} Calcs before it exported as an encode stage, or, when
 * {@code export} is not accelerated, the reasons not even the sink can run accelerated.
 * {@code stoppedBy} says why the Calc before the first exported one stays stock (empty when every
 * Calc of the chain is exported, or none is). {@code keepsLoneSurrogates} are the input
 * columns whose strings may carry a lone surrogate to the sidecar ({@code LoneSurrogateColumns}).
 */
public record EncodeExport(StageExport export, int calcs, List<FallbackReason> stoppedBy, BitSet keepsLoneSurrogates) {
    public EncodeExport {
        stoppedBy = List.copyOf(stoppedBy);
        keepsLoneSurrogates = (BitSet) keepsLoneSurrogates.clone();
    }

    /** An export where not even the sink runs accelerated. */
    static EncodeExport stock(StageExport export) {
        return new EncodeExport(export, 0, List.of(), new BitSet());
    }
}
