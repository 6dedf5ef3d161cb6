package org.flinkaccelerator.planner.stage;

import java.util.List;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * A Kafka source exported as a rows stage, with a prefix of the Calcs of each of its branches
 * ({@link org.flinkaccelerator.planner.segment.SourceChain}), or, when {@code export} is not
 * accelerated, the reasons not even the source can run accelerated (then {@code branches} is
 * empty). {@code watermarks}: how the stage generates the source's watermarks, or null when the
 * source has none.
 */
public record RowsExport(StageExport export, List<Branch> branches, WatermarkSpec watermarks) {
    public RowsExport {
        branches = List.copyOf(branches);
    }

    /**
     * What one branch's output holds: the first {@code calcs} Calcs of the branch run in the stage,
     * whose rows of type {@code rows} go on to stock operators; {@code stoppedBy} says why the Calc
     * after them stays stock (empty when every Calc of the branch is exported, or none is).
     */
    public record Branch(int calcs, List<FallbackReason> stoppedBy, RowType rows) {
        public Branch {
            stoppedBy = List.copyOf(stoppedBy);
        }
    }
}
