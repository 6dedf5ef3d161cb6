package org.flinkaccelerator.runtime.exchange;

import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonProcessingException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
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

    /** The consumer of the operator's output through a {@link BatchChannelPartitioner}. */
    public static ExchangeTarget of(String operator, StreamConfig config, ClassLoader classLoader) {
        List<NonChainedOutput> outputs = config.getOperatorNonChainedOutputs(classLoader);
        for (NonChainedOutput output : outputs) {
            if (output.getPartitioner() instanceof BatchChannelPartitioner) {
                if (output.getConsumerMaxParallelism() <= 0 || output.getConsumerParallelism() <= 0) {
                    throw new SidecarException(operator + ": the job graph leaves the batch exchange's consumer"
                            + " parallelism " + output.getConsumerParallelism() + " and max parallelism "
                            + output.getConsumerMaxParallelism() + " open; run the job with"
                            + " accelerator.exchange.batched.enabled: false");
                }
                return new ExchangeTarget(output.getConsumerParallelism(), output.getConsumerMaxParallelism());
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
