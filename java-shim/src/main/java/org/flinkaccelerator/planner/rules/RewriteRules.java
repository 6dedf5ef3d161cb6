package org.flinkaccelerator.planner.rules;

import java.util.List;

/**
 * The rules the planner applies when the accelerator is enabled, in order: window aggregates first
 * (with accelerator.window-aggregate.enabled) and group aggregates (with
 * accelerator.group-aggregate.enabled), deduplications, Top-N, regular joins, OVER aggregates, group window aggregates and window joins (with
 * their options; none depends on Kafka), then whole Kafka segments, then
 * the Kafka sources left over, partly (rows stages feeding stock operators), then the Kafka sinks left over,
 * partly (encode stages fed by stock operators). Between the last two, batch exchanges between rows stages
 * and the accelerated group aggregates, deduplications and Top-N they feed (with
 * accelerator.exchange.batched.enabled).
 */
public final class RewriteRules {
    private RewriteRules() {}

    public static List<RewriteRule> all() {
        return List.of(new AccelerateWindowAggregates(), new AccelerateGroupAggregates(), new AccelerateDeduplicates(),
                new AccelerateTopN(), new AccelerateJoins(), new AccelerateOverAggregates(), new AccelerateGroupWindowAggregates(),
                new AccelerateWindowJoins(),
                new ExportKafkaSegments(),
                new AccelerateKafkaSources(), new AccelerateBatchExchanges(), new AccelerateKafkaSinks());
    }
}
