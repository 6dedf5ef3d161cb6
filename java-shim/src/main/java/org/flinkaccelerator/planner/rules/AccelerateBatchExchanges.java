package org.flinkaccelerator.planner.rules;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.exchange.BatchExchanges;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * With {@code accelerator.exchange.batched.enabled}, puts a batch exchange between each rows stage
 * and the accelerated group aggregate, deduplication or Top-N it feeds ({@link BatchExchanges});
 * runs after the rows stages exist. The report lists each such operator's exchange, or why it
 * keeps the per-row one.
 */
public final class AccelerateBatchExchanges implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateBatchExchanges.class);

    @Override
    public String name() {
        return "accelerate-batch-exchanges";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        if (!config.get(AcceleratorOptions.EXCHANGE_BATCHED)) {
            return graph;
        }
        List<BatchExchanges.Outcome> outcomes;
        try {
            outcomes = BatchExchanges.apply(graph, config);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not set up batch exchanges; the keyed shuffles carry rows", e);
            return graph;
        }
        for (BatchExchanges.Outcome outcome : outcomes) {
            String line = outcome.perRowReason() == null
                    ? outcome.operator() + ": batches from " + outcome.rowsStage()
                    : outcome.operator() + ": per-row exchange: " + outcome.perRowReason();
            report.exchange(line);
            LOG.info("flink-accelerator: exchange: {}", line);
        }
        return outcomes.stream().anyMatch(o -> o.perRowReason() == null)
                ? new ExecNodeGraph(graph.getFlinkVersion(), graph.getRootNodes()) : graph;
    }
}
