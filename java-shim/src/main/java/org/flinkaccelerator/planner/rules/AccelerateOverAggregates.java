package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.over.AcceleratedOverAggExecNode;
import org.flinkaccelerator.planner.over.OverAggExport;
import org.flinkaccelerator.planner.over.OverAggNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.over.OverAggSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OVER aggregates in the sidecar. With {@code accelerator.over-aggregate.enabled} it exports every
 * {@code StreamExecOverAggregate} ({@link OverAggExport}); each one exported without a stock reason
 * is replaced by an {@link AcceleratedOverAggExecNode} on the same input edge, and the report gets
 * its descriptor; the others stay stock with their reasons in the report. Without the option it
 * does nothing.
 */
public final class AccelerateOverAggregates implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateOverAggregates.class);
    /** The descriptor's name: the table the OVER aggregate reads, then this. */
    static final String SUFFIX = "-over-agg";

    @Override
    public String name() {
        return "accelerate-over-aggregates";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.OVER_AGGREGATE)) {
            return graph;
        }
        List<FoundNode<OverAggNode>> found;
        try {
            found = OverAggNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for OVER aggregates; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<OverAggNode> over : found) {
            String name = StageNames.unique(StageNames.tableRead(over.node()) + SUFFIX, names);
            OverAggExport export = export(name, over, config);
            AcceleratedOverAggExecNode replacement = export.accelerated() ? replacement(over, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, over.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: OVER aggregate {}:\n{}", name, export.toJson());
                report.overAggregate(name, over.node(), export.toJson(), List.of(), replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.overAggregate(name, over.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: OVER aggregates: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code over} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedOverAggExecNode replacement(FoundNode<OverAggNode> over, OverAggExport export,
            ReadableConfig config) {
        try {
            OverAggNode fields = over.fields();
            OverAggSpec spec = new OverAggSpec(export.toJson(), fields.inputType(),
                    config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                    config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedOverAggExecNode node = new AcceleratedOverAggExecNode(config, spec,
                    fields.overSpec().getPartition().getFieldIndices(), fields.outputType());
            NodeReplacement.takeInputs(over.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated OVER aggregate {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static OverAggExport export(String name, FoundNode<OverAggNode> over, ReadableConfig config) {
        if (!over.readable()) {
            return new OverAggExport(name, null, List.of(over.stock()));
        }
        try {
            return OverAggExport.of(name, over.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export OVER aggregate {}; it runs as stock Flink", name, e);
            return new OverAggExport(name, null, List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
