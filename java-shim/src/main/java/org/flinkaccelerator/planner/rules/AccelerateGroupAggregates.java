package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.groupagg.AcceleratedGroupAggExecNode;
import org.flinkaccelerator.planner.groupagg.GroupAggExport;
import org.flinkaccelerator.planner.groupagg.GroupAggNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.groupagg.GroupAggSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Non-windowed group aggregates in the sidecar. With {@code accelerator.group-aggregate.enabled}
 * it exports every {@code StreamExecGroupAggregate} ({@link GroupAggExport}); each one exported
 * without a stock reason is replaced by an {@link AcceleratedGroupAggExecNode} on the same input
 * edge, and the report gets its descriptor; the others stay stock with their reasons in the
 * report. Without the option it does nothing.
 */
public final class AccelerateGroupAggregates implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateGroupAggregates.class);
    /** The descriptor's name: the table the aggregate reads, then this. */
    static final String SUFFIX = "-group-agg";

    @Override
    public String name() {
        return "accelerate-group-aggregates";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.GROUP_AGGREGATE)) {
            return graph;
        }
        List<FoundNode<GroupAggNode>> found;
        try {
            found = GroupAggNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for group aggregates; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<GroupAggNode> aggregate : found) {
            String name = StageNames.unique(StageNames.tableRead(aggregate.node()) + SUFFIX, names);
            GroupAggExport export = export(name, aggregate, config);
            AcceleratedGroupAggExecNode replacement = export.accelerated() ? replacement(aggregate, export, config)
                    : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, aggregate.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: group aggregate {}:\n{}", name, export.toJson());
                report.groupAggregate(name, aggregate.node(), export.toJson(), List.of(),
                        replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.groupAggregate(name, aggregate.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: group aggregates: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code aggregate} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedGroupAggExecNode replacement(FoundNode<GroupAggNode> aggregate, GroupAggExport export,
            ReadableConfig config) {
        try {
            GroupAggNode fields = aggregate.fields();
            GroupAggSpec spec = new GroupAggSpec(export.toJson(), fields.inputType(),
                    config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                    config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedGroupAggExecNode node = new AcceleratedGroupAggExecNode(config, spec, fields.grouping(),
                    fields.outputType());
            NodeReplacement.takeInputs(aggregate.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated group aggregate {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static GroupAggExport export(String name, FoundNode<GroupAggNode> aggregate, ReadableConfig config) {
        if (!aggregate.readable()) {
            return new GroupAggExport(name, null, List.of(aggregate.stock()));
        }
        try {
            return GroupAggExport.of(name, aggregate.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export group aggregate {}; it runs as stock Flink", name, e);
            return new GroupAggExport(name, null, List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
