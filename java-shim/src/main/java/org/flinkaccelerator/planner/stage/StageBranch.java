package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.List;

/**
 * One more output of a rows stage whose source several operators read: its plan over the same
 * decoded table as the stage's own plan, and its output fields (the row, then {@code $message}).
 */
public record StageBranch(Plan plan, List<StageField> output) {
    public StageBranch {
        output = List.copyOf(output);
    }
}
