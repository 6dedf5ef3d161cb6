package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.ExecNodes;

/** Puts an accelerated node in a stock node's place: the stock node's input edges, and its consumers. */
final class NodeReplacement {
    private NodeReplacement() {}

    /** Gives {@code accelerated} the input edges of {@code stock}: same sources, shuffles and exchange modes. */
    static void takeInputs(ExecNode<?> stock, ExecNode<?> accelerated) {
        List<ExecEdge> inputs = new ArrayList<>();
        for (ExecEdge edge : stock.getInputEdges()) {
            inputs.add(ExecEdge.builder().source(edge.getSource()).target(accelerated).shuffle(edge.getShuffle())
                    .exchangeMode(edge.getExchangeMode()).build());
        }
        accelerated.setInputEdges(inputs);
    }

    /** Makes every consumer of {@code stock} in {@code graph} read {@code accelerated} instead. */
    static void replace(ExecNodeGraph graph, ExecNode<?> stock, ExecNode<?> accelerated) {
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            List<ExecEdge> edges = node.getInputEdges();
            for (int i = 0; i < edges.size(); i++) {
                ExecEdge old = edges.get(i);
                if (old.getSource() == stock) {
                    node.replaceInputEdge(i, ExecEdge.builder().source(accelerated).target(node)
                            .shuffle(old.getShuffle()).exchangeMode(old.getExchangeMode()).build());
                }
            }
        }
    }
}
