package org.flinkaccelerator.planner.windowagg;

import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowAggregate;

/**
 * Which stock node a window aggregate is: the single phase reads rows, the global phase reads the
 * local phase's partial accumulators, so the two need different descriptors.
 */
public enum WindowAggPhase {
    SINGLE("single", StreamExecWindowAggregate.class),
    GLOBAL("global", StreamExecGlobalWindowAggregate.class);

    private final String text;
    private final Class<? extends ExecNode<?>> nodeClass;

    WindowAggPhase(String text, Class<? extends ExecNode<?>> nodeClass) {
        this.text = text;
        this.nodeClass = nodeClass;
    }

    /** The phase as the descriptor spells it. */
    public String text() {
        return text;
    }

    Class<? extends ExecNode<?>> nodeClass() {
        return nodeClass;
    }

    /** The node classes of the phases, the window aggregates the accelerator considers. */
    static Set<Class<? extends ExecNode<?>>> nodeClasses() {
        return Set.of(SINGLE.nodeClass, GLOBAL.nodeClass);
    }

    /** The phase of {@code node}, or null when it is no window aggregate the accelerator considers. */
    public static WindowAggPhase of(ExecNode<?> node) {
        for (WindowAggPhase phase : values()) {
            if (node.getClass() == phase.nodeClass) {
                return phase;
            }
        }
        return null;
    }
}
