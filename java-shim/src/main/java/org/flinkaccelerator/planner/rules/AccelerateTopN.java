package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.rank.AcceleratedRankExecNode;
import org.flinkaccelerator.planner.rank.RankExport;
import org.flinkaccelerator.planner.rank.RankNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.rank.RankSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Top-N in the sidecar. With {@code accelerator.top-n.enabled} it exports every
 * {@code StreamExecRank} ({@link RankExport}); each one exported without a stock reason is
 * replaced by an {@link AcceleratedRankExecNode} on the same input edge, and the report gets its
 * descriptor; the others stay stock with their reasons in the report. Without the option it does
 * nothing.
 */
public final class AccelerateTopN implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateTopN.class);
    /** The descriptor's name: the table the Top-N reads, then this. */
    static final String SUFFIX = "-top-n";

    @Override
    public String name() {
        return "accelerate-top-n";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.TOP_N)) {
            return graph;
        }
        List<FoundNode<RankNode>> found;
        try {
            found = RankNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for Top-N; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<RankNode> rank : found) {
            String name = StageNames.unique(StageNames.tableRead(rank.node()) + SUFFIX, names);
            RankExport export = export(name, rank, config);
            AcceleratedRankExecNode replacement = export.accelerated() ? replacement(rank, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, rank.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: Top-N {}:\n{}", name, export.toJson());
                report.topN(name, rank.node(), export.toJson(), List.of(), replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.topN(name, rank.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: Top-N: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code rank} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedRankExecNode replacement(FoundNode<RankNode> rank, RankExport export,
            ReadableConfig config) {
        try {
            RankNode fields = rank.fields();
            RankSpec spec = new RankSpec(export.toJson(), fields.inputType(),
                    config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                    config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedRankExecNode node = new AcceleratedRankExecNode(config, spec,
                    fields.partitionSpec().getFieldIndices(), fields.outputType());
            NodeReplacement.takeInputs(rank.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated Top-N {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static RankExport export(String name, FoundNode<RankNode> rank, ReadableConfig config) {
        if (!rank.readable()) {
            return new RankExport(name, null, List.of(rank.stock()));
        }
        try {
            return RankExport.of(name, rank.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export Top-N {}; it runs as stock Flink", name, e);
            return new RankExport(name, null, List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
