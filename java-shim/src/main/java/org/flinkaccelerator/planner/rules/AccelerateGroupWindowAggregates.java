package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.groupwindow.AcceleratedGroupWindowExecNode;
import org.flinkaccelerator.planner.groupwindow.GroupWindowExport;
import org.flinkaccelerator.planner.groupwindow.GroupWindowNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.groupwindow.GroupWindowSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Legacy group window aggregates ({@code GROUP BY TUMBLE/HOP/SESSION(...)}) in the sidecar. With
 * {@code accelerator.group-window-aggregate.enabled} it exports every
 * {@code StreamExecGroupWindowAggregate} ({@link GroupWindowExport}); each one exported without a
 * stock reason is replaced by an {@link AcceleratedGroupWindowExecNode} on the same input edge,
 * and the report gets its descriptor; the others stay stock with their reasons in the report.
 * Without the option it does nothing.
 */
public final class AccelerateGroupWindowAggregates implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateGroupWindowAggregates.class);
    /** The descriptor's name: the table the aggregate reads, then this. */
    static final String SUFFIX = "-group-window";

    @Override
    public String name() {
        return "accelerate-group-window-aggregates";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.GROUP_WINDOW_AGGREGATE)) {
            return graph;
        }
        List<FoundNode<GroupWindowNode>> found;
        try {
            found = GroupWindowNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for group window aggregates; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<GroupWindowNode> aggregate : found) {
            String name = StageNames.unique(StageNames.tableRead(aggregate.node()) + SUFFIX, names);
            GroupWindowExport export = export(name, aggregate, config);
            AcceleratedGroupWindowExecNode replacement = export.accelerated()
                    ? replacement(aggregate, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, aggregate.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: group window aggregate {}:\n{}", name, export.toJson());
                report.groupWindowAggregate(name, aggregate.node(), export.toJson(), List.of(),
                        replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.groupWindowAggregate(name, aggregate.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: group window aggregates: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code aggregate} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedGroupWindowExecNode replacement(FoundNode<GroupWindowNode> aggregate,
            GroupWindowExport export, ReadableConfig config) {
        try {
            GroupWindowNode fields = aggregate.fields();
            GroupWindowSpec spec = new GroupWindowSpec(export.toJson(), fields.inputType(),
                    GroupWindowExport.rowtimeIndex(fields), config.get(AcceleratorOptions.PYTHON_EXECUTABLE),
                    config.get(AcceleratorOptions.BATCH_SIZE), config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedGroupWindowExecNode node = new AcceleratedGroupWindowExecNode(config, spec, fields.grouping(),
                    fields.outputType());
            NodeReplacement.takeInputs(aggregate.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated group window aggregate {}; it runs as stock"
                    + " Flink", export.name(), e);
            return null;
        }
    }

    private static GroupWindowExport export(String name, FoundNode<GroupWindowNode> aggregate, ReadableConfig config) {
        if (!aggregate.readable()) {
            return new GroupWindowExport(name, null, List.of(aggregate.stock()));
        }
        try {
            return GroupWindowExport.of(name, aggregate.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export group window aggregate {}; it runs as stock Flink", name, e);
            return new GroupWindowExport(name, null,
                    List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
