package org.flinkaccelerator.runtime.exchange;

import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.runtime.io.network.api.writer.ResultPartitionWriter;
import org.apache.flink.streaming.api.graph.NonChainedOutput;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * The keyed operator a rows stage feeds through a batch exchange, as the job graph has it: its
 * parallelism and max parallelism, which decide every row's key group and subtask. The rows
 * stage's descriptor gets them in its {@code exchange} section when the operator opens its stage
 * (the planner does not know them: Flink settles both when it builds the job graph).
 */
public record ExchangeTarget(int parallelism, int maxParallelism) {
    public static final String SECTION = "exchange";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Whether {@code descriptorJson} is a rows stage feeding a batch exchange. */
    public static boolean feedsExchange(String descriptorJson) {
        return parse(descriptorJson).path(SECTION).isObject();
    }

    /**
     * The consumer of the operator's output through a {@link BatchChannelPartitioner}, as the
     * running job has it: the number of subpartitions and the target key groups of that output's
     * result partition (what Flink's own keyed partitioner is configured with at run time, where a
     * max parallelism left open in the job graph is settled, from a savepoint's too).
     */
    public static ExchangeTarget of(String operator, StreamConfig config, ClassLoader classLoader,
            ResultPartitionWriter[] writers) {
        List<NonChainedOutput> outputs = config.getOperatorNonChainedOutputs(classLoader);
        for (NonChainedOutput output : outputs) {
            if (!(output.getPartitioner() instanceof BatchChannelPartitioner)) {
                continue;
            }
            for (ResultPartitionWriter writer : writers) {
                if (writer.getPartitionId().getPartitionId().getIntermediateDataSetID().equals(output.getDataSetId())) {
                    if (writer.getNumTargetKeyGroups() <= 0) {
                        throw new SidecarException(operator + ": the batch exchange's result partition has "
                                + writer.getNumTargetKeyGroups() + " target key groups; run the job with"
                                + " accelerator.exchange.batched.enabled: false");
                    }
                    return new ExchangeTarget(writer.getNumberOfSubpartitions(), writer.getNumTargetKeyGroups());
                }
            }
        }
        throw new SidecarException(operator + ": the planner made this rows stage feed a batch exchange, but none of"
                + " its " + outputs.size() + " network outputs is one; run the job with"
                + " accelerator.exchange.batched.enabled: false and report this");
    }

    /** {@code descriptorJson} with this target in its exchange section. */
    public String into(String descriptorJson) {
        JsonNode descriptor = parse(descriptorJson);
        ((ObjectNode) descriptor.path(SECTION)).put("parallelism", parallelism).put("max_parallelism", maxParallelism);
        return descriptor.toString();
    }

    private static JsonNode parse(String descriptorJson) {
        try {
            return JSON.readTree(descriptorJson);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the stage descriptor is no JSON: " + e.getMessage(), e);
        }
    }
}
