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
 * Finds the Kafka sources of an ExecNode graph with the chains of Calcs after them, and who
 * consumes each node (so the consumers of a replaced node can be pointed at its replacement).
 * Sources some node of {@code accelerated} already reads (the raw-value twins of replaced
 * segments) are skipped.
 */
public final class SourceChainFinder {
    /** Input {@code input} of {@code consumer} reads the node this use is listed under. */
    public record Use(ExecNode<?> consumer, int input) {}

    /** The chains found, in the order the graph's sinks reach their sources, and every node's uses. */
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
        List<ExecNode<?>> pending = new ArrayList<>(graph.getRootNodes());
        while (!pending.isEmpty()) {
            ExecNode<?> node = pending.remove(pending.size() - 1);
            if (seen.put(node, Boolean.TRUE) != null) {
                continue;
            }
            order.add(node);
            List<ExecEdge> edges = node.getInputEdges();
            for (int i = 0; i < edges.size(); i++) {
                uses.computeIfAbsent(edges.get(i).getSource(), n -> new ArrayList<>()).add(new Use(node, i));
                pending.add(edges.get(i).getSource());
            }
        }
        List<SourceChain> chains = new ArrayList<>();
        for (ExecNode<?> node : order) {
            if (!(node instanceof StreamExecTableSourceScan source)
                    || !SegmentFinder.isKafka(source.getTableSourceSpec().getContextResolvedTable())
                    || uses.getOrDefault(node, List.of()).stream().anyMatch(u -> accelerated.isInstance(u.consumer()))) {
                continue;
            }
            List<StreamExecCalc> calcs = new ArrayList<>();
            ExecNode<?> last = source;
            while (uses.getOrDefault(last, List.of()).size() == 1
                    && uses.get(last).get(0).consumer() instanceof StreamExecCalc calc) {
                calcs.add(calc);
                last = calc;
            }
            chains.add(new SourceChain(source, calcs));
        }
        return new Result(chains, uses);
    }
}
