package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowjoin.AcceleratedWindowJoinExecNode;
import org.flinkaccelerator.planner.windowjoin.WindowJoinExport;
import org.flinkaccelerator.planner.windowjoin.WindowJoinNode;
import org.flinkaccelerator.runtime.windowjoin.WindowJoinSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Window joins in the sidecar. With {@code accelerator.window-join.enabled} it exports every
 * {@code StreamExecWindowJoin} ({@link WindowJoinExport}); each one exported without a stock reason
 * is replaced by an {@link AcceleratedWindowJoinExecNode} on the same two input edges, and the
 * report gets its descriptor; the others stay stock with their reasons in the report. Without the
 * option it does nothing.
 */
public final class AccelerateWindowJoins implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateWindowJoins.class);
    /** The descriptor's name: the table the join reads first, then this. */
    static final String SUFFIX = "-window-join";

    @Override
    public String name() {
        return "accelerate-window-joins";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.WINDOW_JOIN)) {
            return graph;
        }
        List<FoundNode<WindowJoinNode>> found;
        try {
            found = WindowJoinNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for window joins; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<WindowJoinNode> join : found) {
            String name = StageNames.unique(StageNames.tableRead(join.node()) + SUFFIX, names);
            WindowJoinExport export = export(name, join, config);
            AcceleratedWindowJoinExecNode replacement = export.accelerated() ? replacement(join, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, join.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: window join {}:\n{}", name, export.toJson());
                report.windowJoin(name, join.node(), export.toJson(), List.of(), replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.windowJoin(name, join.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: window joins: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code join} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedWindowJoinExecNode replacement(FoundNode<WindowJoinNode> join, WindowJoinExport export,
            ReadableConfig config) {
        try {
            WindowJoinNode fields = join.fields();
            WindowJoinSpec spec = new WindowJoinSpec(export.toJson(), fields.leftType(), fields.rightType(),
                    WindowJoinExport.windowEnd(fields.leftWindowing()), WindowJoinExport.windowEnd(fields.rightWindowing()),
                    export.shiftTimeZone(), config.get(AcceleratorOptions.PYTHON_EXECUTABLE),
                    config.get(AcceleratorOptions.BATCH_SIZE), config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedWindowJoinExecNode node = new AcceleratedWindowJoinExecNode(config, spec,
                    fields.joinSpec().getLeftKeys(), fields.joinSpec().getRightKeys(), fields.outputType());
            NodeReplacement.takeInputs(join.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated window join {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static WindowJoinExport export(String name, FoundNode<WindowJoinNode> join, ReadableConfig config) {
        if (!join.readable()) {
            return new WindowJoinExport(name, null, null, List.of(join.stock()));
        }
        try {
            return WindowJoinExport.of(name, join.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export window join {}; it runs as stock Flink", name, e);
            return new WindowJoinExport(name, null, null,
                    List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
