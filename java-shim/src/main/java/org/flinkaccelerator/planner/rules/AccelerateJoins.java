package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.join.AcceleratedJoinExecNode;
import org.flinkaccelerator.planner.join.JoinExport;
import org.flinkaccelerator.planner.join.JoinNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.join.JoinSpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Regular joins in the sidecar. With {@code accelerator.join.enabled} it exports every
 * {@code StreamExecJoin} ({@link JoinExport}); each one exported without a stock reason is replaced
 * by an {@link AcceleratedJoinExecNode} on the same two input edges, and the report gets its
 * descriptor; the others stay stock with their reasons in the report. Without the option it does
 * nothing.
 */
public final class AccelerateJoins implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateJoins.class);
    /** The descriptor's name: the table the join reads first, then this. */
    static final String SUFFIX = "-join";

    @Override
    public String name() {
        return "accelerate-joins";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.JOIN)) {
            return graph;
        }
        List<FoundNode<JoinNode>> found;
        try {
            found = JoinNode.find(graph);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for regular joins; they run as stock Flink", e);
            return graph;
        }
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        for (FoundNode<JoinNode> join : found) {
            String name = StageNames.unique(StageNames.tableRead(join.node()) + SUFFIX, names);
            JoinExport export = export(name, join, config);
            AcceleratedJoinExecNode replacement = export.accelerated() ? replacement(join, export, config) : null;
            if (replacement != null) {
                NodeReplacement.replace(graph, join.node(), replacement);
                summary.add(name + " runs as " + replacement.spec().operatorName());
                LOG.debug("flink-accelerator: join {}:\n{}", name, export.toJson());
                report.join(name, join.node(), export.toJson(), List.of(), replacement.spec().operatorName());
            } else {
                summary.add(name + " stays stock: " + StageNames.joined(export.fallback()));
                report.join(name, join.node(), null,
                        export.fallback().stream().map(FallbackReason::toString).toList(), null);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: joins: {}", String.join("; ", summary));
        }
        return graph;
    }

    /** The node that runs {@code join} accelerated, or null (logged) when it cannot be built. */
    private static AcceleratedJoinExecNode replacement(FoundNode<JoinNode> join, JoinExport export,
            ReadableConfig config) {
        try {
            JoinNode fields = join.fields();
            JoinSpec spec = new JoinSpec(export.toJson(), fields.leftType(), fields.rightType(),
                    fields.joinSpec().getFilterNulls(), config.get(AcceleratorOptions.PYTHON_EXECUTABLE),
                    config.get(AcceleratorOptions.BATCH_SIZE), config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(),
                    config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                    config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
            AcceleratedJoinExecNode node = new AcceleratedJoinExecNode(config, spec, fields.joinSpec().getLeftKeys(),
                    fields.joinSpec().getRightKeys(), fields.outputType());
            NodeReplacement.takeInputs(join.node(), node);
            return node;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not build the accelerated join {}; it runs as stock Flink",
                    export.name(), e);
            return null;
        }
    }

    private static JoinExport export(String name, FoundNode<JoinNode> join, ReadableConfig config) {
        if (!join.readable()) {
            return new JoinExport(name, null, List.of(join.stock()));
        }
        try {
            return JoinExport.of(name, join.fields(), config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not export join {}; it runs as stock Flink", name, e);
            return new JoinExport(name, null, List.of(new FallbackReason("exec node", "exporting it failed: " + e)));
        }
    }
}
