package org.flinkaccelerator.planner.rules;

import java.util.List;
import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.planner.stage.FallbackReason;

/** Names and reason lines the partial-acceleration rules give their stages in one plan. */
final class StageNames {
    private StageNames() {}

    /** {@code name}, or {@code name-2}, {@code name-3}, ... when {@code taken} holds it; added to {@code taken}. */
    static String unique(String name, Set<String> taken) {
        String candidate = name;
        for (int i = 2; !taken.add(candidate); i++) {
            candidate = name + "-" + i;
        }
        return candidate;
    }

    /** The table whose source scan feeds {@code node} through first inputs, or "window" when there is none. */
    static String tableRead(ExecNode<?> node) {
        for (ExecNode<?> n = node; ; n = n.getInputEdges().get(0).getSource()) {
            if (n instanceof StreamExecTableSourceScan scan) {
                return scan.getTableSourceSpec().getContextResolvedTable().getIdentifier().getObjectName();
            }
            if (n.getInputEdges().isEmpty()) {
                return "window";
            }
        }
    }

    static String joined(List<FallbackReason> reasons) {
        return String.join("; ", reasons.stream().map(FallbackReason::toString).toList());
    }
}
