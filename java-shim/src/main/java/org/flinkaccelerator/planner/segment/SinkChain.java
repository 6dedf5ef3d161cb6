package org.flinkaccelerator.planner.segment;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;

/**
 * A Kafka sink and the Calcs before it, one after another (from the first towards the sink), each
 * the only consumer of the node before it, fed by some other node: what an encode stage may take
 * over, the sink alone or with a suffix of the Calcs. {@code feederConsumers}: how many nodes read
 * the node before the first Calc (or before the sink).
 */
public record SinkChain(List<StreamExecCalc> calcs, StreamExecSink sink, int feederConsumers) {
    public SinkChain {
        calcs = List.copyOf(calcs);
    }
}
