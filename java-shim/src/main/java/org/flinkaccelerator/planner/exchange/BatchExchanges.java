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
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SideOutputExecNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.exchange.ExchangeTarget;
import org.flinkaccelerator.runtime.state.ChangelogSpec;

/**
 * Finds where a rows stage, or one branch of a rows stage over a shared source, feeds an
 * accelerated keyed operator that reads its input as {@code update} rows (a group aggregate, a
 * deduplication, a Top-N, a window or group window aggregate) through stock's hash exchange on the
 * operator's keys, and puts a batch exchange there: the branch's output in the rows stage's
 * descriptor gets an {@code exchange} section (the key fields and the operator's batch fields), the
 * operator's {@code "exchange": "batched"}, and a {@link BatchExchangeExecNode} replaces stock's
 * exchange. The other outputs of the stage keep what they had (rows one by one, or their own batch
 * exchange). Every such operator it passes over gets the reason it keeps the per-row exchange.
 */
public final class BatchExchanges {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What became of one accelerated keyed operator: its name, and a reason when it kept the per-row exchange. */
    public record Outcome(String operator, String rowsStage, String perRowReason) {}

    private BatchExchanges() {}

    /** Rewires {@code graph} in place; one outcome per accelerated operator that can read batches ({@link BatchReadingNode}). */
    public static List<Outcome> apply(ExecNodeGraph graph, ReadableConfig config) {
        List<Outcome> outcomes = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (node instanceof BatchReadingNode) {
                // Each batch exchange replaces the rows stage it reads: look at the graph as it is now.
                outcomes.add(consider(ExecNodes.reachable(graph), (SidecarStateExecNode<?>) node, config));
            }
        }
        return outcomes;
    }

    private static Outcome consider(List<ExecNode<?>> nodes, SidecarStateExecNode<?> consumer, ReadableConfig config) {
        String operator = consumer.spec().operatorName();
        ExecNode<?> before = consumer.getInputEdges().get(0).getSource();
        if (!(before instanceof StreamExecExchange exchange)) {
            return new Outcome(operator, null, "its input is no exchange of its own");
        }
        // The rows the exchange reads: a rows stage's main output, or one branch's side output.
        ExecNode<?> output = exchange.getInputEdges().get(0).getSource();
        if (output instanceof StreamExecLocalWindowAggregate) {
            return new Outcome(operator, null, "its exchange reads the stock local window aggregate, which was not"
                    + " folded into a rows stage (its reason is among the stock parts)");
        }
        int branch = output instanceof SideOutputExecNode side ? side.branch() : 0;
        ExecNode<?> source = branch == 0 ? output : output.getInputEdges().get(0).getSource();
        if (!(source instanceof AcceleratedExecNode rows) || !rows.spec().emitsRows()) {
            return new Outcome(operator, null, "no rows stage feeds its exchange");
        }
        String rowsStage = rows.spec().operatorName() + (rows.spec().sideRows().isEmpty() ? ""
                : " (branch " + (branch + 1) + " of " + (rows.spec().sideRows().size() + 1) + ")");
        int[] keys = consumer.keys().get(0);
        RowType rowType = (RowType) output.getOutputType();
        String why = refusal(nodes, consumer, exchange, rows, output, rowType, keys);
        if (why != null) {
            return new Outcome(operator, rowsStage, why);
        }
        AcceleratedExecNode batchedRows = new AcceleratedExecNode(config,
                withDescriptor(rows.spec(), withExchange(rows.spec().descriptorJson(), branch, rowType, keys,
                        ((BatchReadingNode) consumer).exchangeFields(
                                parse(consumer.spec().descriptorJson()).path("input").path("fields")))));
        batchedRows.setInputEdges(List.of(ExecEdge.builder().source(rows.getInputEdges().get(0).getSource())
                .target(batchedRows).shuffle(rows.getInputEdges().get(0).getShuffle())
                .exchangeMode(rows.getInputEdges().get(0).getExchangeMode()).build()));
        ExecNode<?> batchedOutput = batchedRows;
        if (branch > 0) {
            // The side output now carries batch records: a tag of that type.
            batchedOutput = new SideOutputExecNode(config, batchedRows.spec().sideOutput(branch), rowType, branch);
            batchedOutput.setInputEdges(List.of(ExecEdge.builder().source(batchedRows).target(batchedOutput).build()));
        }
        BatchExchangeExecNode batchExchange = new BatchExchangeExecNode(config, rowType,
                "BatchExchange(" + rowsStage + " -> " + operator + ")");
        batchExchange.setInputEdges(List.of(ExecEdge.builder().source(batchedOutput).target(batchExchange).build()));
        ExecNode<?> batchedConsumer = ((BatchReadingNode) consumer).withDescriptor(
                batched(consumer.spec().descriptorJson()), config);
        batchedConsumer.setInputEdges(List.of(ExecEdge.builder().source(batchExchange).target(batchedConsumer)
                .build()));
        // The consumer's readers read its batch-reading copy; whatever else read the rows stage
        // (its other outputs' side outputs and consumers) reads the stage's replacement.
        for (ExecNode<?> node : nodes) {
            if (node == exchange || node == output) {
                continue;
            }
            List<ExecEdge> edges = node.getInputEdges();
            for (int i = 0; i < edges.size(); i++) {
                ExecEdge old = edges.get(i);
                ExecNode<?> replacement = old.getSource() == consumer ? batchedConsumer
                        : old.getSource() == rows ? batchedRows : null;
                if (replacement != null) {
                    node.replaceInputEdge(i, ExecEdge.builder().source(replacement).target(node)
                            .shuffle(old.getShuffle()).exchangeMode(old.getExchangeMode()).build());
                }
            }
        }
        return new Outcome(operator, rowsStage, null);
    }

    /** Why the operator keeps the per-row exchange, or null; {@code output} is the rows stage's output its exchange reads. */
    private static String refusal(List<ExecNode<?>> nodes, SidecarStateExecNode<?> consumer,
            StreamExecExchange exchange, AcceleratedExecNode rows, ExecNode<?> output, RowType rowType, int[] keys) {
        if (keys.length == 0) {
            return "without keys (a global aggregate or Top-N) one subtask reads every row; nothing to split";
        }
        InputProperty.RequiredDistribution distribution = exchange.getInputProperties().get(0).getRequiredDistribution();
        if (!(distribution instanceof InputProperty.HashDistribution hash)
                || !java.util.Arrays.equals(hash.getKeys(), keys)) {
            return "the exchange before it is not a hash exchange on its keys (" + distribution + ")";
        }
        if (readers(nodes, output) != 1) {
            return rows.spec().sideRows().isEmpty() ? "its rows stage has other consumers"
                    : "the rows of its branch of the rows stage (a shared source) go to other operators too";
        }
        if (readers(nodes, exchange) != 1) {
            return "its exchange has other consumers";
        }
        if (consumer.spec() instanceof ChangelogSpec changelog && changelog.updatingInput()) {
            return "its input is updating";
        }
        for (int key : keys) {
            String refused = ExchangeKeys.refusal(rowType.getFieldNames().get(key), rowType.getTypeAt(key));
            if (refused != null) {
                return refused;
            }
        }
        return null;
    }

    /**
     * How many input edges read {@code source}; of a rows stage (the main output), the side
     * outputs that select its other branches do not count.
     */
    private static int readers(List<ExecNode<?>> nodes, ExecNode<?> source) {
        int count = 0;
        for (ExecNode<?> node : nodes) {
            for (ExecEdge edge : node.getInputEdges()) {
                if (edge.getSource() == source && !(node instanceof SideOutputExecNode)) {
                    count++;
                }
            }
        }
        return count;
    }

    /**
     * The rows stage's descriptor with an exchange section for output {@code branch} (0: the
     * stage's own output, i: its {@code branches} entry i): the key fields and the consumer's
     * batch fields. Where a local window aggregate is folded into that output, its partial rows
     * are what cross the exchange.
     */
    static String withExchange(String rowsDescriptor, int branch, RowType rowType, int[] keys,
            JsonNode consumerFields) {
        ObjectNode descriptor = (ObjectNode) parse(rowsDescriptor);
        JsonNode output = branch == 0 ? descriptor : descriptor.path(ExchangeTarget.BRANCHES).path(branch - 1);
        if (!(output instanceof ObjectNode section) || section.has(ExchangeTarget.SECTION)) {
            throw new IllegalStateException("output " + branch + " of the rows stage " + descriptor.path("name")
                    + " is missing or already feeds a batch exchange");
        }
        JsonNode local = section.path(StageDescriptor.LOCAL_PHASE);
        JsonNode rowsFields = (local.isObject() ? local : section).path("output").path("fields");
        ObjectNode exchange = section.putObject(ExchangeTarget.SECTION);
        ArrayNode keyFields = exchange.putArray("keys");
        for (int key : keys) {
            JsonNode field = rowsFields.path(key);
            if (!rowType.getFieldNames().get(key).equals(field.path("name").asText())) {
                throw new IllegalStateException("field " + key + " of output " + branch + " of the rows stage is "
                        + field + ", not " + rowType.getFieldNames().get(key));
            }
            keyFields.add(field.deepCopy());
        }
        exchange.set("fields", consumerFields.deepCopy());
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
