package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.MessageEncodingNode;
import org.flinkaccelerator.planner.replace.SegmentReplacement;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.segment.SinkChain;
import org.flinkaccelerator.planner.segment.SinkChainFinder;
import org.flinkaccelerator.planner.stage.EncodeExport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.StageExporter;
import org.flinkaccelerator.planner.stage.UpsertKafkaSinks;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partial acceleration at the sink end: every Kafka sink ('kafka' or 'upsert-kafka', whose
 * changelog the stage carries to an upsert twin) that is not part of a replaced segment,
 * with the longest run of Calcs before it that is reproduced exactly, becomes an encode stage
 * ({@link StageExporter#exportEncode}) fed by the stock operator before them, and a raw-value
 * sink. Runs after {@link AccelerateKafkaSources}, so a stock operator it reads may be fed by a
 * rows stage. One INFO line per plan names the encode stages and why each part before them (or
 * each sink) stays stock. New nodes only: the nodes that stay keep their edges. Applies only with
 * {@code accelerator.encode-stages.enabled}. With {@code accelerator.encode-stages.fused.enabled}, an
 * encode stage whose only feeder is an accelerated operator that can encode messages itself
 * ({@link MessageEncodingNode}) is folded into a copy of that operator, which feeds the raw sink.
 */
public final class AccelerateKafkaSinks implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateKafkaSinks.class);
    /** The stage's name: the sink table's, then this. */
    static final String SUFFIX = "-encode";

    @Override
    public String name() {
        return "accelerate-kafka-sinks";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.ENCODE_STAGES)) {
            return graph;
        }
        List<SinkChain> chains;
        try {
            chains = SinkChainFinder.find(graph, AcceleratedExecNode.class);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for Kafka sinks to accelerate partly; they run as stock Flink",
                    e);
            return graph;
        }
        StageExporter exporter = new StageExporter(FunctionRegistry.standard());
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        Map<ExecNode<?>, ExecNode<?>> replaced = new IdentityHashMap<>();
        for (SinkChain chain : chains) {
            String table = chain.sink().getTableSinkSpec().getContextResolvedTable().getIdentifier().getObjectName();
            String name = StageNames.unique(table + SUFFIX, names);
            try {
                EncodeExport encode = exporter.exportEncode(name, chain.calcs(), chain.sink(), config);
                if (!encode.export().accelerated()) {
                    summary.add("sink " + table + " stays stock: " + StageNames.joined(encode.export().fallback()));
                    if (UpsertKafkaSinks.is(chain.sink())) {
                        // No segment line says why (SegmentFinder only names the connector): explain shows this.
                        report.stock(name, List.of(chain.sink()),
                                encode.export().fallback().stream().map(FallbackReason::toString).toList());
                    }
                    continue;
                }
                List<StreamExecCalc> calcs = chain.calcs().subList(chain.calcs().size() - encode.calcs(),
                        chain.calcs().size());
                ExecEdge input = (calcs.isEmpty() ? chain.sink() : calcs.get(0)).getInputEdges().get(0);
                // A stock Calc left before the stage is in the chain, so the stage is its only reader.
                boolean soleConsumer = calcs.size() < chain.calcs().size() || chain.feederConsumers() == 1;
                String sinkFormat = encode.export().descriptor().encode().format();
                MessageEncodingNode encoding = fusedInto(input, chain, config, summary, table);
                StreamExecSink sink = encoding != null
                        ? SegmentReplacement.buildFusedEncode(input.getSource(), encoding, chain.sink(),
                                encode.export().toJson(), sinkFormat, config)
                        : SegmentReplacement.buildEncode(input, soleConsumer, chain.sink(), name, encode.export().toJson(),
                                sinkFormat, encode.keepsLoneSurrogates(), config);
                replaced.put(chain.sink(), sink);
                List<ExecNode<?>> nodes = new ArrayList<>(calcs);
                nodes.add(chain.sink());
                String operator = encoding != null ? sink.getInputEdges().get(0).getSource().getDescription()
                        + " (the encode stage " + name + " fused into it)" : "Accelerated[" + name + "]";
                List<String> stoppedBy = encode.stoppedBy().stream().map(FallbackReason::toString).toList();
                report.encoding(name, nodes, operator, stoppedBy);
                if (AcceleratedUpstream.of(input.getSource())) {
                    report.fedByAcceleratedOperators(
                            chain.sink().getTableSinkSpec().getContextResolvedTable().getIdentifier().asSummaryString());
                }
                summary.add((calcs.isEmpty() ? "" : calcs.size() + " calc(s) and ") + "sink " + table + " run as "
                        + operator + ", fed by stock " + input.getSource().getDescription()
                        + (stoppedBy.isEmpty() ? "" : " (the calc before stays stock: " + String.join("; ", stoppedBy) + ")"));
            } catch (RuntimeException e) {
                LOG.warn("flink-accelerator: could not accelerate sink {} partly; it runs as stock Flink", table, e);
                summary.add("sink " + table + " stays stock: building its accelerated operator failed: " + e);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: partial acceleration at sinks: {}", String.join("; ", summary));
        }
        return ReplacedRoots.of(graph, replaced);
    }

    /**
     * The accelerated operator an encode stage reading {@code input} is folded into, with
     * {@code accelerator.encode-stages.fused.enabled}: the stage's only feeder, read directly (no
     * stock Calc, exchange or other consumer between), whose stage can encode its rows' messages;
     * else null, the reason a fusion was refused added to {@code summary}.
     */
    private static MessageEncodingNode fusedInto(ExecEdge input, SinkChain chain, ReadableConfig config,
            List<String> summary, String table) {
        // A stock Calc left before the stage is the source of input, never such a node.
        if (!config.get(AcceleratorOptions.FUSED_ENCODE_STAGES) || !(input.getSource() instanceof MessageEncodingNode node)
                || chain.feederConsumers() != 1) {
            return null;
        }
        String refusal = node.encodingRefusal();
        if (refusal != null) {
            summary.add("the encode stage of sink " + table + " stays beside " + input.getSource().getDescription()
                    + ": " + refusal);
            return null;
        }
        return node;
    }
}
