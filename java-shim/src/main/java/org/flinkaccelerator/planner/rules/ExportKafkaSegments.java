package org.flinkaccelerator.planner.rules;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.stage.StageExport;
import org.flinkaccelerator.planner.stage.StageExports;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the plan's Kafka segments and exports each as a stage descriptor, without replacing any
 * node yet (the accelerated operator does not exist): one INFO line per plan says which segments
 * could be accelerated and why the others stay stock; DEBUG shows each descriptor.
 */
public final class ExportKafkaSegments implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(ExportKafkaSegments.class);

    @Override
    public String name() {
        return "export-kafka-segments";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config) {
        StageExports exports;
        try {
            exports = StageExports.of(graph, config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not analyse this plan; it runs as stock Flink", e);
            return graph;
        }
        LOG.info("flink-accelerator: {} (every node still runs on stock Flink: the accelerated operator is not built yet)",
                exports.summary());
        if (LOG.isDebugEnabled()) {
            for (StageExport export : exports.exports()) {
                LOG.debug("flink-accelerator: stage {}:\n{}", export.name(), export.toJson());
            }
        }
        return graph;
    }
}
