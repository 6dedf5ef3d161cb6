package org.flinkaccelerator.planner.segment;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;

/**
 * Finds the Kafka sources of an ExecNode graph with the chains of Calcs after each of their uses
 * (a source several operators read has one branch per use), and who consumes each node (so the consumers of a replaced node can be pointed at its replacement).
 * Sources some node of {@code accelerated} already reads (the raw-value twins of replaced
 * segments) are skipped.
 */
public final class SourceChainFinder {
    /** Input {@code input} of {@code consumer} reads the node this use is listed under. */
    public record Use(ExecNode<?> consumer, int input) {}

    /** The chains found, in the order the graph's sinks reach their sources, and every node's uses (in stream-graph edge order). */
    public record Result(List<SourceChain> chains, Map<ExecNode<?>, List<Use>> uses) {
        public List<Use> usesOf(ExecNode<?> node) {
            return uses.getOrDefault(node, List.of());
        }
    }

    private SourceChainFinder() {}

    public static Result find(ExecNodeGraph graph, Class<?> accelerated) {
        Map<ExecNode<?>, List<Use>> uses = new IdentityHashMap<>();
        List<ExecNode<?>> order = new ArrayList<>();
        Map<ExecNode<?>, Boolean> seen = new IdentityHashMap<>();
        for (ExecNode<?> root : graph.getRootNodes()) {
            visit(root, seen, order, uses);
        }
        List<SourceChain> chains = new ArrayList<>();
        for (ExecNode<?> node : order) {
            if (!(node instanceof StreamExecTableSourceScan source)
                    || !SegmentFinder.isKafka(source.getTableSourceSpec().getContextResolvedTable())
                    || uses.getOrDefault(node, List.of()).stream().anyMatch(u -> accelerated.isInstance(u.consumer()))) {
                continue;
            }
            List<SourceChain.Branch> branches = new ArrayList<>();
            for (Use use : uses.getOrDefault(node, List.of())) {
                branches.add(new SourceChain.Branch(use, calcsFrom(use.consumer(), uses)));
            }
            if (!branches.isEmpty()) {
                chains.add(new SourceChain(source, branches));
            }
        }
        return new Result(chains, uses);
    }

    /**
     * Lists {@code node} after its inputs, and its uses of them, as Flink's stream graph generator
     * meets them: inputs first, in input order, from the roots in order. So a node's uses come in
     * the order of its outgoing edges in the stream graph, the order in which an operator chain
     * hands each record to its consumers (a rows stage emits its branches in that order).
     */
    private static void visit(ExecNode<?> node, Map<ExecNode<?>, Boolean> seen, List<ExecNode<?>> order,
            Map<ExecNode<?>, List<Use>> uses) {
        if (seen.put(node, Boolean.TRUE) != null) {
            return;
        }
        List<ExecEdge> edges = node.getInputEdges();
        for (ExecEdge edge : edges) {
            visit(edge.getSource(), seen, order, uses);
        }
        for (int i = 0; i < edges.size(); i++) {
            uses.computeIfAbsent(edges.get(i).getSource(), n -> new ArrayList<>()).add(new Use(node, i));
        }
        order.add(node);
    }

    /** The Calcs from {@code first} on, each the only consumer of the one before (none: {@code first} is no Calc). */
    private static List<StreamExecCalc> calcsFrom(ExecNode<?> first, Map<ExecNode<?>, List<Use>> uses) {
        List<StreamExecCalc> calcs = new ArrayList<>();
        ExecNode<?> node = first;
        while (node instanceof StreamExecCalc calc) {
            calcs.add(calc);
            List<Use> next = uses.getOrDefault(calc, List.of());
            if (next.size() != 1) {
                break;
            }
            node = next.get(0).consumer();
        }
        return calcs;
    }
}
