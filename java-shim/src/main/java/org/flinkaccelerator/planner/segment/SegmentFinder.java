package org.flinkaccelerator.planner.segment;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.factories.FactoryUtil;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;

/**
 * Finds the Kafka source -> Calc* -> Kafka sink chains of an ExecNode graph, and says for every
 * other sink why it is not one.
 */
public final class SegmentFinder {
    /** The connector identifier of Flink's Kafka table connector. */
    static final String KAFKA = "kafka";
    /** The connector identifier of Flink's upsert-kafka table connector (a changelog written by key). */
    static final String UPSERT_KAFKA = "upsert-kafka";

    /** The segments found, and one line per sink that does not end a segment. */
    public record Result(List<KafkaSegment> segments, List<String> notSegments) {}

    private SegmentFinder() {}

    public static Result find(ExecNodeGraph graph) {
        Map<ExecNode<?>, Integer> consumers = consumerCounts(graph);
        List<KafkaSegment> segments = new ArrayList<>();
        List<String> notSegments = new ArrayList<>();
        for (ExecNode<?> root : graph.getRootNodes()) {
            if (!(root instanceof StreamExecSink)) {
                notSegments.add(root.getDescription() + ": not a table sink");
                continue;
            }
            StreamExecSink sink = (StreamExecSink) root;
            ContextResolvedTable sinkTable = sink.getTableSinkSpec().getContextResolvedTable();
            if (isUpsertKafka(sinkTable)) {
                notSegments.add(sinkTable.getIdentifier().asSummaryString() + ": sink connector is '" + UPSERT_KAFKA
                        + "', whose changelog only an encode stage writes, not a whole segment");
                continue;
            }
            if (!isKafka(sinkTable)) {
                notSegments.add(sinkTable.getIdentifier().asSummaryString() + ": sink connector is not '" + KAFKA + "'");
                continue;
            }
            List<StreamExecCalc> calcs = new ArrayList<>();
            ExecNode<?> node = onlyInput(sink);
            while (node instanceof StreamExecCalc && consumers.get(node) == 1) {
                calcs.add((StreamExecCalc) node);
                node = onlyInput(node);
            }
            String why = whyNotKafkaSource(node, consumers);
            if (why != null) {
                notSegments.add(sinkTable.getIdentifier().asSummaryString() + ": " + why);
                continue;
            }
            Collections.reverse(calcs);
            segments.add(new KafkaSegment((StreamExecTableSourceScan) node, calcs, sink));
        }
        return new Result(segments, notSegments);
    }

    private static String whyNotKafkaSource(ExecNode<?> node, Map<ExecNode<?>, Integer> consumers) {
        if (!(node instanceof StreamExecTableSourceScan)) {
            return "fed by " + (node == null ? "several inputs" : node.getClass().getSimpleName())
                    + ", not by Calcs over a Kafka source";
        }
        ContextResolvedTable table = ((StreamExecTableSourceScan) node).getTableSourceSpec().getContextResolvedTable();
        if (!isKafka(table)) {
            return "source " + table.getIdentifier().asSummaryString() + " is not a '" + KAFKA + "' table";
        }
        if (consumers.get(node) != 1) {
            return "source " + table.getIdentifier().asSummaryString() + " feeds " + consumers.get(node)
                    + " operators (it runs as one rows stage that decodes it once for all of them)";
        }
        return null;
    }

    static boolean isKafka(ContextResolvedTable table) {
        return KAFKA.equals(table.getResolvedTable().getOptions().get(FactoryUtil.CONNECTOR.key()));
    }

    /** True for an 'upsert-kafka' table. */
    public static boolean isUpsertKafka(ContextResolvedTable table) {
        return UPSERT_KAFKA.equals(table.getResolvedTable().getOptions().get(FactoryUtil.CONNECTOR.key()));
    }

    static ExecNode<?> onlyInput(ExecNode<?> node) {
        List<ExecEdge> edges = node.getInputEdges();
        return edges.size() == 1 ? edges.get(0).getSource() : null;
    }

    static Map<ExecNode<?>, Integer> consumerCounts(ExecNodeGraph graph) {
        Map<ExecNode<?>, Integer> counts = new IdentityHashMap<>();
        List<ExecNode<?>> pending = new ArrayList<>(graph.getRootNodes());
        Map<ExecNode<?>, Boolean> seen = new IdentityHashMap<>();
        while (!pending.isEmpty()) {
            ExecNode<?> node = pending.remove(pending.size() - 1);
            if (seen.put(node, Boolean.TRUE) != null) {
                continue;
            }
            for (ExecEdge edge : node.getInputEdges()) {
                counts.merge(edge.getSource(), 1, Integer::sum);
                pending.add(edge.getSource());
            }
        }
        return counts;
    }
}
