package org.flinkaccelerator.planner.segment;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;

/**
 * A stateless stretch of a streaming plan the accelerator can take over: a Kafka source, the
 * Calcs it feeds one after another (from the source towards the sink), and the Kafka sink they
 * feed. Every node but the sink has exactly one consumer.
 */
public record KafkaSegment(StreamExecTableSourceScan source, List<StreamExecCalc> calcs, StreamExecSink sink) {
    public KafkaSegment {
        calcs = List.copyOf(calcs);
    }
}
