package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.dedup.AcceleratedDedupExecNode;
import org.flinkaccelerator.planner.dedup.DedupExport;
import org.flinkaccelerator.planner.dedup.DedupNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.dedup.DedupSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deduplications in the sidecar. With {@code accelerator.deduplicate.enabled} it exports every
 * {@code StreamExecDeduplicate} ({@link DedupExport}); each one exported without a stock reason
 * is replaced by an {@link AcceleratedDedupExecNode} on the same input edge, and the report gets
 * its descriptor; the others stay stock with their reasons in the report. Without the option it
 * does nothing.
 */
public final class AccelerateDeduplicates implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateDeduplicates.class);
    /** The descriptor's name: the table the deduplication reads, then this. */
    static final String SUFFIX = "-dedup";

    @Override
    public String name() {
        return "accelerate-deduplicates";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.DEDUPLICATE)) {
            return graph;
        }
        List<FoundNode<DedupNode>> found;
        try {
            found = DedupNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for deduplications; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<DedupNode> dedup : found) {
            String name = StageNames.unique(StageNames.tableRead(dedup.node()) + SUFFIX, names);
            DedupExport export = export(name, dedup, config);
            AcceleratedDedupExecNode replacement = export.accelerated() ? replacement(dedup, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, dedup.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: deduplication {}:\n{}", name, export.toJson());
                report.deduplication(name, dedup.node(), export.toJson(), List.of(), replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.deduplication(name, dedup.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: deduplications: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code dedup} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedDedupExecNode replacement(FoundNode<DedupNode> dedup, DedupExport export,
            ReadableConfig config) {
        try {
            DedupNode fields = dedup.fields();
            DedupSpec spec = new DedupSpec(export.toJson(), fields.inputType(),
                    config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                    config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedDedupExecNode node = new AcceleratedDedupExecNode(config, spec, fields.uniqueKeys(),
                    fields.outputType());
            NodeReplacement.takeInputs(dedup.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated deduplication {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static DedupExport export(String name, FoundNode<DedupNode> dedup, ReadableConfig config) {
        if (!dedup.readable()) {
            return new DedupExport(name, null, List.of(dedup.stock()));
        }
        try {
            return DedupExport.of(name, dedup.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export deduplication {}; it runs as stock Flink", name, e);
            return new DedupExport(name, null, List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
