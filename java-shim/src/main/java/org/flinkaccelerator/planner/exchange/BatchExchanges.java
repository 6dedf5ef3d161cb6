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
 * deduplication, a Top-N, a window or group window aggregate, either input of a regular join)
 * through stock's hash exchange on the operator's keys, and puts a batch exchange there: the
 * branch's output in the rows stage's descriptor gets an {@code exchange} section (the key fields,
 * the operator's batch fields, what else the operator needs: {@link BatchReadingNode#describeInput}),
 * the operator's descriptor says which inputs read batches ({@link BatchReadingNode#readBatches}),
 * and a {@link BatchExchangeExecNode} replaces stock's exchange. The other outputs of the stage keep
 * what they had (rows one by one, or their own batch exchange). Every such input it passes over
 * gets the reason it keeps the per-row exchange.
 */
public final class BatchExchanges {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The words after a two-input operator's name in its inputs' outcomes. */
    private static final String[] INPUT_NAMES = {" (left input)", " (right input)"};

    /**
     * What became of one input of an accelerated keyed operator: the operator's name (and the
     * input's, for two inputs), and a reason when it kept the per-row exchange, else its batch exchange.
     */
    public record Outcome(String operator, String rowsStage, String perRowReason, ExecNode<?> exchange) {}

    private BatchExchanges() {}

    /** Rewires {@code graph} in place; one outcome per input of each accelerated operator that reads batches. */
    public static List<Outcome> apply(ExecNodeGraph graph, ReadableConfig config) {
        List<Outcome> outcomes = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (node instanceof BatchReadingNode) {
                outcomes.addAll(consider(graph, (SidecarStateExecNode<?>) node, config));
            }
        }
        return outcomes;
    }

    /**
     * Puts a batch exchange before each input of {@code consumer} a rows stage feeds as it can; the
     * other inputs keep their per-row exchange. Input by input, each batched input replacing the
     * consumer (and the rows stage it reads) in the graph at once, so that the next input, which
     * may read another branch of the same rows stage, sees the graph as it is now.
     */
    private static List<Outcome> consider(ExecNodeGraph graph, SidecarStateExecNode<?> consumer,
            ReadableConfig config) {
        int inputs = consumer.getInputEdges().size();
        List<Outcome> outcomes = new ArrayList<>();
        ObjectNode descriptor = (ObjectNode) parse(consumer.spec().descriptorJson());
        ExecNode<?> current = consumer;
        for (int input = 0; input < inputs; input++) {
            String operator = consumer.spec().operatorName() + (inputs == 1 ? "" : INPUT_NAMES[input]);
            List<ExecNode<?>> nodes = ExecNodes.reachable(graph);
            Outcome outcome = consider(nodes, consumer, current, input, operator, config);
            outcomes.add(outcome);
            if (outcome.exchange() == null) {
                continue;
            }
            ((BatchReadingNode) consumer).readBatches(descriptor, input);
            ExecNode<?> batchedConsumer = ((BatchReadingNode) consumer).withDescriptor(descriptor.toString(), config);
            List<ExecEdge> batchedEdges = new ArrayList<>();
            for (int i = 0; i < inputs; i++) {
                ExecEdge old = current.getInputEdges().get(i);
                batchedEdges.add(i == input
                        ? ExecEdge.builder().source(outcome.exchange()).target(batchedConsumer).build()
                        : ExecEdge.builder().source(old.getSource()).target(batchedConsumer).shuffle(old.getShuffle())
                                .exchangeMode(old.getExchangeMode()).build());
            }
            batchedConsumer.setInputEdges(batchedEdges);
            for (ExecNode<?> node : nodes) {
                replaceSource(node, current, batchedConsumer);
            }
            current = batchedConsumer;
        }
        return outcomes;
    }

    /**
     * Input {@code input} of {@code current} (the consumer as the graph holds it now): its batch
     * exchange, after which the rows stage that feeds it is replaced by one answering that input's
     * batches, or why it keeps the per-row exchange.
     */
    private static Outcome consider(List<ExecNode<?>> nodes, SidecarStateExecNode<?> consumer, ExecNode<?> current,
            int input, String operator, ReadableConfig config) {
        ExecNode<?> before = current.getInputEdges().get(input).getSource();
        if (!(before instanceof StreamExecExchange exchange)) {
            return new Outcome(operator, null, "its input is no exchange of its own", null);
        }
        // The rows the exchange reads: a rows stage's main output, or one branch's side output.
        ExecNode<?> output = exchange.getInputEdges().get(0).getSource();
        if (output instanceof StreamExecLocalWindowAggregate) {
            return new Outcome(operator, null, "its exchange reads the stock local window aggregate, which was not"
                    + " folded into a rows stage (its reason is among the stock parts)", null);
        }
        int branch = output instanceof SideOutputExecNode side ? side.branch() : 0;
        ExecNode<?> source = branch == 0 ? output : output.getInputEdges().get(0).getSource();
        if (!(source instanceof AcceleratedExecNode rows) || !rows.spec().emitsRows()) {
            return new Outcome(operator, null, "no rows stage feeds its exchange", null);
        }
        String rowsStage = rows.spec().operatorName() + (rows.spec().sideRows().isEmpty() ? ""
                : " (branch " + (branch + 1) + " of " + (rows.spec().sideRows().size() + 1) + ")");
        int[] keys = consumer.keys().get(input);
        RowType rowType = (RowType) output.getOutputType();
        String why = refusal(nodes, consumer, exchange, rows, output, rowType, keys);
        if (why == null) {
            why = ((BatchReadingNode) consumer).refusal(input, rowType);
        }
        if (why != null) {
            return new Outcome(operator, rowsStage, why, null);
        }
        AcceleratedExecNode batchedRows = new AcceleratedExecNode(config,
                withDescriptor(rows.spec(), withExchange(rows.spec().descriptorJson(), branch, rowType, keys,
                        consumer.spec().descriptorJson(), (BatchReadingNode) consumer, input)));
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
        // Whatever else read the rows stage (its other outputs' side outputs and consumers) reads
        // the stage's replacement.
        for (ExecNode<?> node : nodes) {
            if (node != exchange && node != output) {
                replaceSource(node, rows, batchedRows);
            }
        }
        return new Outcome(operator, rowsStage, null, batchExchange);
    }

    /** Points {@code node}'s input edges from {@code old} to {@code replacement}, keeping their shuffle. */
    private static void replaceSource(ExecNode<?> node, ExecNode<?> old, ExecNode<?> replacement) {
        List<ExecEdge> edges = node.getInputEdges();
        for (int i = 0; i < edges.size(); i++) {
            ExecEdge edge = edges.get(i);
            if (edge.getSource() == old) {
                node.replaceInputEdge(i, ExecEdge.builder().source(replacement).target(node)
                        .shuffle(edge.getShuffle()).exchangeMode(edge.getExchangeMode()).build());
            }
        }
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
     * stage's own output, i: its {@code branches} entry i): the key fields, the consumer's batch
     * fields and what else the consumer's input {@code input} needs. Where a local window aggregate
     * is folded into that output, its partial rows are what cross the exchange.
     */
    static String withExchange(String rowsDescriptor, int branch, RowType rowType, int[] keys,
            String consumerDescriptor, BatchReadingNode consumer, int input) {
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
                throw new IllegalStateException("rows field " + key + " is " + field + ", not "
                        + rowType.getFieldNames().get(key));
            }
            keyFields.add(field.deepCopy());
        }
        exchange.set("fields", consumer.exchangeFields(parse(consumerDescriptor).path("input").path("fields")).deepCopy());
        ArrayNode rowFields = JSON.createArrayNode();
        for (int i = 0; i < rowType.getFieldCount(); i++) {
            rowFields.add(rowsFields.path(i).deepCopy());
        }
        consumer.describeInput(exchange, input, rowFields);
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
