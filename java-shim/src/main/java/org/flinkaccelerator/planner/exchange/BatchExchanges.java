package org.flinkaccelerator.planner.exchange;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.exchange.ExchangeTarget;
import org.flinkaccelerator.runtime.state.ChangelogSpec;

/**
 * Finds where a rows stage feeds an accelerated keyed operator that reads its input as {@code
 * update} rows (a group aggregate, a deduplication, a Top-N) through stock's hash exchange on the
 * operator's keys, and puts a batch exchange there: the rows stage's descriptor gets an {@code
 * exchange} section (the key fields and the operator's batch fields), the operator's {@code
 * "exchange": "batched"}, and a {@link BatchExchangeExecNode} replaces stock's exchange. Every such
 * operator it passes over gets the reason it keeps the per-row exchange.
 */
public final class BatchExchanges {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What became of one accelerated keyed operator: its name, and a reason when it kept the per-row exchange. */
    public record Outcome(String operator, String rowsStage, String perRowReason) {}

    private BatchExchanges() {}

    /** Rewires {@code graph} in place; one outcome per accelerated group aggregate, deduplication and Top-N. */
    public static List<Outcome> apply(ExecNodeGraph graph, ReadableConfig config) {
        List<Outcome> outcomes = new ArrayList<>();
        List<ExecNode<?>> nodes = ExecNodes.reachable(graph);
        for (ExecNode<?> node : nodes) {
            if (node instanceof BatchReadingNode) {
                outcomes.add(consider(nodes, (SidecarStateExecNode<? extends ChangelogSpec>) node, config));
            }
        }
        return outcomes;
    }

    private static Outcome consider(List<ExecNode<?>> nodes, SidecarStateExecNode<? extends ChangelogSpec> consumer,
            ReadableConfig config) {
        String operator = consumer.spec().operatorName();
        ExecNode<?> before = consumer.getInputEdges().get(0).getSource();
        if (!(before instanceof StreamExecExchange exchange)) {
            return new Outcome(operator, null, "its input is no exchange of its own");
        }
        ExecNode<?> source = exchange.getInputEdges().get(0).getSource();
        if (!(source instanceof AcceleratedExecNode rows) || !rows.spec().emitsRows()) {
            return new Outcome(operator, null, "no rows stage feeds its exchange");
        }
        String rowsStage = rows.spec().operatorName();
        int[] keys = consumer.keys().get(0);
        String why = refusal(nodes, consumer, exchange, rows, keys);
        if (why != null) {
            return new Outcome(operator, rowsStage, why);
        }
        RowType rowType = (RowType) rows.getOutputType();
        AcceleratedExecNode batchedRows = new AcceleratedExecNode(config,
                withDescriptor(rows.spec(), withExchange(rows.spec().descriptorJson(), rowType, keys,
                        consumer.spec().descriptorJson())));
        batchedRows.setInputEdges(List.of(ExecEdge.builder().source(rows.getInputEdges().get(0).getSource())
                .target(batchedRows).shuffle(rows.getInputEdges().get(0).getShuffle())
                .exchangeMode(rows.getInputEdges().get(0).getExchangeMode()).build()));
        BatchExchangeExecNode batchExchange = new BatchExchangeExecNode(config, rowType,
                "BatchExchange(" + rowsStage + " -> " + operator + ")");
        batchExchange.setInputEdges(List.of(ExecEdge.builder().source(batchedRows).target(batchExchange).build()));
        ExecNode<?> batchedConsumer = ((BatchReadingNode) consumer).withDescriptor(
                batched(consumer.spec().descriptorJson()), config);
        batchedConsumer.setInputEdges(List.of(ExecEdge.builder().source(batchExchange).target(batchedConsumer)
                .build()));
        for (ExecNode<?> node : nodes) {
            List<ExecEdge> edges = node.getInputEdges();
            for (int i = 0; i < edges.size(); i++) {
                ExecEdge old = edges.get(i);
                if (old.getSource() == consumer) {
                    node.replaceInputEdge(i, ExecEdge.builder().source(batchedConsumer).target(node)
                            .shuffle(old.getShuffle()).exchangeMode(old.getExchangeMode()).build());
                }
            }
        }
        return new Outcome(operator, rowsStage, null);
    }

    /** Why the operator keeps the per-row exchange, or null. */
    private static String refusal(List<ExecNode<?>> nodes, SidecarStateExecNode<? extends ChangelogSpec> consumer,
            StreamExecExchange exchange, AcceleratedExecNode rows, int[] keys) {
        if (keys.length == 0) {
            return "without keys (a global aggregate or Top-N) one subtask reads every row; nothing to split";
        }
        InputProperty.RequiredDistribution distribution = exchange.getInputProperties().get(0).getRequiredDistribution();
        if (!(distribution instanceof InputProperty.HashDistribution hash)
                || !java.util.Arrays.equals(hash.getKeys(), keys)) {
            return "the exchange before it is not a hash exchange on its keys (" + distribution + ")";
        }
        if (!rows.spec().sideRows().isEmpty()) {
            return "its rows stage has other outputs (a shared source)";
        }
        if (consumers(nodes, rows) != 1 || consumers(nodes, exchange) != 1) {
            return "its rows stage or exchange has other consumers";
        }
        if (consumer.spec().updatingInput()) {
            return "its input is updating";
        }
        RowType rowType = (RowType) rows.getOutputType();
        for (int key : keys) {
            String refused = ExchangeKeys.refusal(rowType.getFieldNames().get(key), rowType.getTypeAt(key));
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    private static int consumers(List<ExecNode<?>> nodes, ExecNode<?> source) {
        int count = 0;
        for (ExecNode<?> node : nodes) {
            for (ExecEdge edge : node.getInputEdges()) {
                if (edge.getSource() == source) {
                    count++;
                }
            }
        }
        return count;
    }

    /** The rows stage's descriptor with its exchange section: the key fields and the consumer's batch fields. */
    static String withExchange(String rowsDescriptor, RowType rowType, int[] keys, String consumerDescriptor) {
        ObjectNode descriptor = (ObjectNode) parse(rowsDescriptor);
        JsonNode rowsFields = descriptor.path("output").path("fields");
        ObjectNode exchange = descriptor.putObject(ExchangeTarget.SECTION);
        ArrayNode keyFields = exchange.putArray("keys");
        for (int key : keys) {
            JsonNode field = rowsFields.path(key);
            if (!rowType.getFieldNames().get(key).equals(field.path("name").asText())) {
                throw new IllegalStateException("rows field " + key + " is " + field + ", not "
                        + rowType.getFieldNames().get(key));
            }
            keyFields.add(field.deepCopy());
        }
        exchange.set("fields", parse(consumerDescriptor).path("input").path("fields").deepCopy());
        return descriptor.toString();
    }

    /** The consumer's descriptor reading batch records. */
    static String batched(String consumerDescriptor) {
        ObjectNode descriptor = (ObjectNode) parse(consumerDescriptor);
        descriptor.put(ChangelogSpec.EXCHANGE, ChangelogSpec.BATCHED);
        return descriptor.toString();
    }

    private static AcceleratedSegmentSpec withDescriptor(AcceleratedSegmentSpec spec, String descriptorJson) {
        return new AcceleratedSegmentSpec(spec.segmentName(), descriptorJson, spec.pythonExecutable(),
                spec.batchSize(), spec.batchBytes(), spec.maxDelay(), spec.sidecarTimeout(), spec.heartbeatInterval(),
                spec.coordinates(), spec.rows(), spec.consumes(), spec.keepsLoneSurrogates(), spec.watermarks(),
                spec.sideRows(), spec.arrowLimit());
    }

    private static JsonNode parse(String json) {
        try {
            return JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("a stage descriptor is no JSON: " + e.getMessage(), e);
        }
    }
}
