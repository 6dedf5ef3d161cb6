package org.flinkaccelerator.runtime.exchange;

import java.util.List;
import java.util.Objects;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.runtime.io.network.api.writer.ResultPartitionWriter;
import org.apache.flink.streaming.api.graph.NonChainedOutput;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * The keyed operator one output of a rows stage feeds through a batch exchange, as the job graph
 * has it: its parallelism and max parallelism, which decide every row's key group and subtask. The
 * output's {@code exchange} section in the rows stage's descriptor (the descriptor's own for the
 * main output, its {@code branches} entry's for a side output) gets them when the operator opens
 * its stage (the planner does not know them: Flink settles both when it builds the job graph).
 */
public record ExchangeTarget(int parallelism, int maxParallelism) {
    public static final String SECTION = "exchange";
    public static final String BRANCHES = "branches";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether the main output of the rows stage {@code descriptorJson} feeds a batch exchange. */
    public static boolean feedsExchange(String descriptorJson) {
        return feedsExchange(descriptorJson, 0);
    }

    /**
     * Whether output {@code output} of the rows stage {@code descriptorJson} (0 the main output,
     * i the side output of branch i) feeds a batch exchange.
     */
    public static boolean feedsExchange(String descriptorJson, int output) {
        return section(parse(descriptorJson), output).path(SECTION).isObject();
    }

    /**
     * The consumer of the operator's output {@code tag} (null: the main output) through a
     * {@link BatchChannelPartitioner}, as the running job has it: the number of subpartitions and
     * the target key groups of that output's result partition (what Flink's own keyed partitioner
     * is configured with at run time, where a max parallelism left open in the job graph is
     * settled, from a savepoint's too).
     */
    public static ExchangeTarget of(String operator, OutputTag<?> tag, StreamConfig config, ClassLoader classLoader,
            ResultPartitionWriter[] writers) {
        String output = tag == null ? "main output" : "side output " + tag.getId();
        List<NonChainedOutput> outputs = config.getOperatorNonChainedOutputs(classLoader);
        for (NonChainedOutput candidate : outputs) {
            if (!(candidate.getPartitioner() instanceof BatchChannelPartitioner)
                    || !Objects.equals(candidate.getOutputTag(), tag)) {
                continue;
            }
            for (ResultPartitionWriter writer : writers) {
                if (writer.getPartitionId().getPartitionId().getIntermediateDataSetID()
                        .equals(candidate.getDataSetId())) {
                    if (writer.getNumTargetKeyGroups() <= 0) {
                        throw new SidecarException(operator + ": the batch exchange's result partition of its " + output
                                + " has " + writer.getNumTargetKeyGroups() + " target key groups; run the job with"
                                + " accelerator.exchange.batched.enabled: false");
                    }
                    return new ExchangeTarget(writer.getNumberOfSubpartitions(), writer.getNumTargetKeyGroups());
                }
            }
        }
        throw new SidecarException(operator + ": the planner made the " + output + " of this rows stage feed a batch"
                + " exchange, but none of its " + outputs.size() + " network outputs is one; run the job with"
                + " accelerator.exchange.batched.enabled: false and report this");
    }

    /** {@code descriptorJson} with this target in the exchange section of output {@code output}. */
    public String into(String descriptorJson, int output) {
        JsonNode descriptor = parse(descriptorJson);
        JsonNode section = section(descriptor, output).path(SECTION);
        if (!section.isObject()) {
            throw new IllegalArgumentException("output " + output + " of the stage has no " + SECTION + " section");
        }
        ((ObjectNode) section).put("parallelism", parallelism).put("max_parallelism", maxParallelism);
        return descriptor.toString();
    }

    /** The descriptor for output 0, its {@code branches} entry for output i. */
    private static JsonNode section(JsonNode descriptor, int output) {
        return output == 0 ? descriptor : descriptor.path(BRANCHES).path(output - 1);
    }

    private static JsonNode parse(String descriptorJson) {
        try {
            return JSON.readTree(descriptorJson);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the stage descriptor is no JSON: " + e.getMessage(), e);
        }
    }
}
