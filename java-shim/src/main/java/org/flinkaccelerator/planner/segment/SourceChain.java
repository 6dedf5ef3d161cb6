package org.flinkaccelerator.planner.segment;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;

/**
 * A Kafka source and the Calcs after it, one after another, each the only consumer of the node
 * before it: what a rows stage may take over, the source alone or with a prefix of the Calcs.
 */
public record SourceChain(StreamExecTableSourceScan source, List<StreamExecCalc> calcs) {
    public SourceChain {
        calcs = List.copyOf(calcs);
    }
}
