package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.logical.SliceAttachedWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.AcceleratedWindowAggExecNode;
import org.flinkaccelerator.planner.windowagg.WindowAggExport;
import org.flinkaccelerator.planner.windowagg.WindowAggNode;
import org.flinkaccelerator.planner.windowagg.WindowAggPhase;
import org.flinkaccelerator.runtime.windowagg.WindowAggSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Event-time TUMBLE window aggregates in the sidecar (docs/design/stateful-window-aggregate.md).
 * With {@code accelerator.window-aggregate.enabled} it exports every window aggregate
 * ({@link WindowAggExport}); each one exported without a stock reason is replaced by an
 * {@link AcceleratedWindowAggExecNode} on the same input edge (its consumers read the new node),
 * and the report gets its descriptor; the others stay stock with their reasons in the report.
 * Without the option it does nothing.
 */
public final class AccelerateWindowAggregates implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateWindowAggregates.class);
    /** The descriptor's name: the table the aggregate reads, then this. */
    static final String SUFFIX = "-window-agg";

    @Override
    public String name() {
        return "accelerate-window-aggregates";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.WINDOW_AGGREGATE)) {
            return graph;
        }
        List<FoundNode<WindowAggNode>> found;
        try {
            found = WindowAggNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for window aggregates; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<WindowAggNode> aggregate : found) {
            String name = StageNames.unique(baseName(aggregate.node()), names);
            WindowAggExport export = export(name, aggregate, config);
            AcceleratedWindowAggExecNode replacement = export.accelerated() ? replacement(aggregate, export, config)
                    : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, aggregate.node(), replacement);
                summary.add(name + " (" + export.phase().text() + ") runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: window aggregate {}:\n{}", name, export.toJson());
                report.windowAggregate(name, aggregate.node(), export.toJson(), List.of(),
                        replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.windowAggregate(name, aggregate.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: window aggregates: {}",
                    String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code aggregate} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedWindowAggExecNode replacement(FoundNode<WindowAggNode> aggregate, WindowAggExport export,
            ReadableConfig config) {
        try {
            WindowAggNode fields = aggregate.fields();
            int timeIndex = fields.windowing() instanceof TimeAttributeWindowingStrategy time
                    ? time.getTimeAttributeIndex()
                    : ((SliceAttachedWindowingStrategy) fields.windowing()).getSliceEnd();
            WindowAggSpec spec = new WindowAggSpec(export.toJson(), fields.inputType(), timeIndex,
                    config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                    config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedWindowAggExecNode node = new AcceleratedWindowAggExecNode(config, spec, fields.grouping(),
                    fields.outputType());
            NodeReplacement.takeInputs(aggregate.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated window aggregate {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static WindowAggExport export(String name, FoundNode<WindowAggNode> aggregate, ReadableConfig config) {
        if (!aggregate.readable()) {
            return new WindowAggExport(name, WindowAggPhase.of(aggregate.node()), null, List.of(aggregate.stock()));
        }
        try {
            return WindowAggExport.of(name, aggregate.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export window aggregate {}; it runs as stock Flink", name, e);
            return new WindowAggExport(name, WindowAggPhase.of(aggregate.node()), null,
                    List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }

    /**
     * The name a window aggregate's descriptor gets, made unique per plan: the table whose source
     * scan feeds it through first inputs (or "window" when there is none), then {@value #SUFFIX}.
     */
    public static String baseName(ExecNode<?> node) {
        return StageNames.tableRead(node) + SUFFIX;
    }
}
