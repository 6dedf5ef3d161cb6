package org.flinkaccelerator.planner.segment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;

/**
 * Finds the Kafka sinks ('kafka' and 'upsert-kafka') of an ExecNode graph with the chains of Calcs
 * before them. Sinks fed by a node of {@code accelerated} (the raw-value twins of replaced
 * segments) are skipped.
 */
public final class SinkChainFinder {
    private SinkChainFinder() {}

    public static List<SinkChain> find(ExecNodeGraph graph, Class<?> accelerated) {
        Map<ExecNode<?>, Integer> consumers = SegmentFinder.consumerCounts(graph);
        List<SinkChain> chains = new ArrayList<>();
        for (ExecNode<?> root : graph.getRootNodes()) {
            if (!(root instanceof StreamExecSink sink)
                    || !isKafkaSink(sink.getTableSinkSpec().getContextResolvedTable())) {
                continue;
            }
            ExecNode<?> node = SegmentFinder.onlyInput(sink);
            if (node == null || accelerated.isInstance(node)) {
                continue;
            }
            List<StreamExecCalc> calcs = new ArrayList<>();
            while (node instanceof StreamExecCalc calc && consumers.get(node) == 1) {
                calcs.add(calc);
                node = SegmentFinder.onlyInput(node);
            }
            Collections.reverse(calcs);
            chains.add(new SinkChain(calcs, sink, consumers.getOrDefault(node, 0)));
        }
        return chains;
    }

    private static boolean isKafkaSink(ContextResolvedTable table) {
        return SegmentFinder.isKafka(table) || SegmentFinder.isUpsertKafka(table);
    }
}
