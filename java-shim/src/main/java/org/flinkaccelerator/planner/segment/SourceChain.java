package org.flinkaccelerator.planner.segment;

import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;

/**
 * A Kafka source and what reads it: one branch per use of the source (one for a source read by
 * one operator; several for a source a statement set or a query shares), each the Calcs after
 * that use, one after another, each the only consumer of the node before it. What a rows stage
 * may take over: the source decoded once, and in each branch a prefix of its Calcs.
 */
public record SourceChain(StreamExecTableSourceScan source, List<Branch> branches) {
    public SourceChain {
        branches = List.copyOf(branches);
        if (branches.isEmpty()) {
            throw new IllegalArgumentException("a source chain has at least one branch");
        }
    }

    /**
     * One use of the source ({@code use}: which input of which node reads it) and the Calcs that
     * follow from it (empty when that node is not a Calc).
     */
    public record Branch(SourceChainFinder.Use use, List<StreamExecCalc> calcs) {
        public Branch {
            calcs = List.copyOf(calcs);
        }
    }

    /** The branches' Calc chains, in branch order. */
    public List<List<StreamExecCalc>> calcChains() {
        return branches.stream().map(Branch::calcs).toList();
    }
}
