package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.WindowAggExport;
import org.flinkaccelerator.planner.windowagg.WindowAggFinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Event-time TUMBLE window aggregates in the sidecar (docs/design/stateful-window-aggregate.md).
 * Report only for now: with {@code accelerator.window-aggregate.enabled} it exports every window
 * aggregate ({@link WindowAggExport}) and tells the report which would run accelerated, with their
 * descriptors, and why the others stay stock; the plan is returned unchanged, because the runtime
 * operator does not exist yet. Without the option it does nothing.
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
        List<WindowAggFinder.Found> found;
        try {
            found = WindowAggFinder.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for window aggregates; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (WindowAggFinder.Found aggregate : found) {
            String name = StageNames.unique(baseName(aggregate.node()), names);
            WindowAggExport export = export(name, aggregate, config);
            if (export.accelerated()) {
                summary.add(name + " (" + export.phase().text() + ") would run accelerated");
                LOG.debug("flink-accelerator: window aggregate {}:\n{}", name, export.toJson());
                report.windowAggregate(name, aggregate.node(), export.toJson(), List.of());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.windowAggregate(name, aggregate.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList());
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: window aggregates (report only, all run on stock Flink): {}",
                    String.join("; ", summary));
        }
        return graph;
    }

    private static WindowAggExport export(String name, WindowAggFinder.Found aggregate, ReadableConfig config) {
        if (!aggregate.readable()) {
            return new WindowAggExport(name, aggregate.phase(), null,
                    List.of(new FallbackReason("exec node", aggregate.unreadable())));
        }
        try {
            return WindowAggExport.of(name, aggregate.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export window aggregate {}; it runs as stock Flink", name, e);
            return new WindowAggExport(name, aggregate.phase(), null,
                    List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }

    /**
     * The name a window aggregate's descriptor gets, made unique per plan: the table whose source
     * scan feeds it through first inputs (or "window" when there is none), then {@value #SUFFIX}.
     */
    public static String baseName(ExecNode<?> node) {
        return tableRead(node) + SUFFIX;
    }

    private static String tableRead(ExecNode<?> node) {
        for (ExecNode<?> n = node; ; n = n.getInputEdges().get(0).getSource()) {
            if (n instanceof StreamExecTableSourceScan scan) {
                return scan.getTableSourceSpec().getContextResolvedTable().getIdentifier().getObjectName();
            }
            if (n.getInputEdges().isEmpty()) {
                return "window";
            }
        }
    }
}
