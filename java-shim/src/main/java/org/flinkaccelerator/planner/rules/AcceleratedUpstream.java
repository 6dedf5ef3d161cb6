package org.flinkaccelerator.planner.rules;

import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.planner.exchange.BatchExchangeExecNode;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SideOutputExecNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;

/**
 * Whether every operator that feeds a node runs accelerated: the node and all it reads are
 * accelerated stages and stateful operators, the exchanges between them (a shuffle, per row or of
 * batches, no operator of its own), side outputs of a rows stage, and the Kafka sources those
 * stages read as raw bytes.
 * A sink whose encode stage is fed that way has no stock part left, though it ends no whole
 * segment ({@link AccelerateKafkaSinks}).
 */
final class AcceleratedUpstream {
    private AcceleratedUpstream() {}

    static boolean of(ExecNode<?> node) {
        if (node instanceof AcceleratedExecNode) {
            return node.getInputEdges().stream().map(ExecEdge::getSource)
                    .allMatch(input -> input instanceof StreamExecTableSourceScan || of(input));
        }
        if (node instanceof SidecarStateExecNode<?> || node instanceof SideOutputExecNode
                || node instanceof StreamExecExchange || node instanceof BatchExchangeExecNode) {
            return !node.getInputEdges().isEmpty()
                    && node.getInputEdges().stream().map(ExecEdge::getSource).allMatch(AcceleratedUpstream::of);
        }
        return false;
    }
}
