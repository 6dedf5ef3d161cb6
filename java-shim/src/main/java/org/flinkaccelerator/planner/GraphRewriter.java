package org.flinkaccelerator.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.RewriteRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Applies the rewrite rules, in order, to an ExecNode graph; no rules = the graph unchanged. */
public final class GraphRewriter {
    private static final Logger LOG = LoggerFactory.getLogger(GraphRewriter.class);

    private final List<RewriteRule> rules;

    public GraphRewriter(List<RewriteRule> rules) {
        this.rules = List.copyOf(rules);
    }

    public ExecNodeGraph rewrite(ExecNodeGraph graph, ReadableConfig config) {
        return rewrite(graph, config, new AccelerationReport());
    }

    /** The rewritten graph; {@code report} learns which segments run accelerated and why the others do not. */
    public ExecNodeGraph rewrite(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Rewrite rules {} considering the plan's nodes (sinks first): {}",
                    rules.stream().map(RewriteRule::name).collect(Collectors.toList()), describe(graph));
        }
        ExecNodeGraph current = graph;
        for (RewriteRule rule : rules) {
            current = rule.apply(current, config, report);
        }
        return current;
    }

    /** "id:Type[description]" for every node reachable from the roots, each once. */
    static List<String> describe(ExecNodeGraph graph) {
        List<String> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            out.add(node.getId() + ":" + node.getClass().getSimpleName() + "[" + node.getDescription() + "]");
        }
        return out;
    }
}
