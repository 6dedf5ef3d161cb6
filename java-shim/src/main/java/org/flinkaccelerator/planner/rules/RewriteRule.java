package org.flinkaccelerator.planner.rules;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.report.AccelerationReport;

/**
 * One rewrite of the ExecNode graph (e.g. "run this Kafka JSON source and its calc in the
 * sidecar"). A rule returns the graph unchanged when it does not apply, and must not have side
 * effects: EXPLAIN runs it too.
 */
public interface RewriteRule {
    /** Short name for logs and the fallback report. */
    String name();

    /**
     * The rewritten graph, or {@code graph} itself when nothing applies, telling {@code report}
     * what runs accelerated and why not.
     */
    ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report);

    /** As {@link #apply(ExecNodeGraph, ReadableConfig, AccelerationReport)}, the report left unread. */
    default ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config) {
        return apply(graph, config, new AccelerationReport());
    }
}
