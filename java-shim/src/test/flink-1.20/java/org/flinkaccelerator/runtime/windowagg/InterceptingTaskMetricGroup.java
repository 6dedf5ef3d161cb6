package org.flinkaccelerator.runtime.windowagg;

import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.groups.InternalOperatorMetricGroup;
import org.apache.flink.runtime.metrics.groups.UnregisteredMetricGroups;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;

/** A task metric group whose operators all register into one group a test reads (Flink 1.20's lookup signature). */
class InterceptingTaskMetricGroup extends UnregisteredMetricGroups.UnregisteredTaskMetricGroup {
    final InterceptingOperatorMetricGroup operator = new InterceptingOperatorMetricGroup();

    @Override
    public InternalOperatorMetricGroup getOrAddOperator(OperatorID id, String name) {
        return operator;
    }
}
