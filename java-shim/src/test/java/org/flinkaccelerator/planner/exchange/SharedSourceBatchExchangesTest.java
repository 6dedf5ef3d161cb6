package org.flinkaccelerator.planner.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.api.transformations.SideOutputTransformation;
import org.apache.flink.streaming.runtime.partitioner.KeyGroupStreamPartitioner;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.ExecNodes;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SideOutputExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.RewriteRule;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.exchange.BatchChannelPartitioner;
import org.flinkaccelerator.runtime.exchange.BatchRecords;
import org.junit.jupiter.api.Test;

/**
 * Batch exchanges out of a rows stage over a shared source, on plans of Flink's own planner: each
 * branch that feeds an accelerated group aggregate through a hash exchange on its keys gets its own
 * batch exchange, on the stage's main output or on its branch's side output, while a branch the
 * exchange cannot take keeps stock's hash exchange of rows.
 */
class SharedSourceBatchExchangesTest {
    private static final String TABLES = "CREATE TABLE events (kind INT, auction BIGINT, seller BIGINT, price BIGINT,"
            + " score DOUBLE) WITH ('connector' = 'kafka', 'topic' = 'events',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json');\n"
            + upsert("per_auction", "auction BIGINT, n BIGINT, total BIGINT", "auction")
            + upsert("per_seller", "seller BIGINT, n BIGINT", "seller")
            + upsert("per_score", "score DOUBLE, n BIGINT", "score");
    private static final String PER_AUCTION = "INSERT INTO per_auction SELECT auction, COUNT(*), SUM(price) FROM events"
            + " WHERE kind = 2 GROUP BY auction;\n";
    private static final String PER_SELLER = "INSERT INTO per_seller SELECT seller, COUNT(*) FROM events WHERE kind = 1"
            + " GROUP BY seller;\n";
    private static final String PER_SCORE = "INSERT INTO per_score SELECT score, COUNT(*) FROM events WHERE kind = 0"
            + " GROUP BY score;\n";

    private static String upsert(String name, String columns, String key) {
        return "CREATE TABLE " + name + " (" + columns + ", PRIMARY KEY (" + key + ") NOT ENFORCED) WITH ("
                + "'connector' = 'upsert-kafka', 'topic' = '" + name + "', 'properties.bootstrap.servers' ="
                + " 'localhost:9092', 'key.format' = 'json', 'value.format' = 'json');\n";
    }

    /** The statement set {@code inserts} over one source, through every rule, with the batch exchange on. */
    private record Rewritten(SqlPlans plans, ExecNodeGraph graph, String report) {}

    private static Rewritten rewrite(String inserts) {
        SqlPlans plans = new SqlPlans();
        plans.set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        plans.set(AcceleratorOptions.GROUP_AGGREGATE.key(), "true");
        plans.set(AcceleratorOptions.EXCHANGE_BATCHED.key(), "true");
        ExecNodeGraph graph = plans.planTogether(TABLES + inserts);
        AccelerationReport report = new AccelerationReport();
        ExecNodeGraph current = graph;
        for (RewriteRule rule : RewriteRules.all()) {
            current = rule.apply(current, plans.config(), report);
        }
        return new Rewritten(plans, current, report.render(graph));
    }

    private static <T> List<T> nodes(ExecNodeGraph graph, Class<T> type) {
        return ExecNodes.reachable(graph).stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static List<Transformation<?>> transformations(List<Transformation<?>> roots) {
        List<Transformation<?>> all = new ArrayList<>();
        Deque<Transformation<?>> pending = new ArrayDeque<>(roots);
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (!all.contains(t)) {
                all.add(t);
                pending.addAll(t.getInputs());
            }
        }
        return all;
    }

    private static long count(String text, String part) {
        return (text.length() - text.replace(part, "").length()) / part.length();
    }

    @Test
    void twoBranchesOfOneRowsStageEachFeedTheirAggregateThroughABatchExchange() throws Exception {
        Rewritten rewritten = rewrite(PER_AUCTION + PER_SELLER);
        assertEquals(2, count(rewritten.report(), ": batches from Accelerated[events-rows] (branch "),
                rewritten.report());
        assertTrue(rewritten.report().contains("(branch 1 of 2)") && rewritten.report().contains("(branch 2 of 2)"),
                rewritten.report());

        List<AcceleratedExecNode> stages = nodes(rewritten.graph(), AcceleratedExecNode.class).stream()
                .filter(n -> n.spec().emitsRows()).toList();
        assertEquals(1, stages.size(), "one rows stage reads the topic");
        AcceleratedExecNode stage = stages.get(0);
        JsonNode descriptor = new ObjectMapper().readTree(stage.spec().descriptorJson());
        assertTrue(descriptor.path("exchange").isObject(), "the main output feeds a batch exchange");
        assertTrue(descriptor.path("branches").path(0).path("exchange").isObject(), "so does the branch");
        List<BatchExchangeExecNode> exchanges = nodes(rewritten.graph(), BatchExchangeExecNode.class);
        assertEquals(2, exchanges.size());
        List<ExecNode<?>> inputs = exchanges.stream().<ExecNode<?>>map(e -> e.getInputEdges().get(0).getSource())
                .toList();
        assertTrue(inputs.contains(stage), inputs.toString());
        SideOutputExecNode side = inputs.stream().filter(SideOutputExecNode.class::isInstance)
                .map(SideOutputExecNode.class::cast).findFirst().orElseThrow();
        assertEquals(1, side.branch());
        assertEquals(stage, side.getInputEdges().get(0).getSource(), "the side output reads the same stage");
        for (ExecNode<?> node : ExecNodes.reachable(rewritten.graph())) {
            for (ExecEdge edge : node.getInputEdges()) {
                if (edge.getSource() instanceof AcceleratedExecNode a && a.spec().emitsRows()) {
                    assertEquals(stage, a, node + " reads a rows stage the exchanges replaced");
                }
            }
        }

        List<Transformation<?>> all = transformations(rewritten.plans().translate(rewritten.graph()));
        assertEquals(1, all.stream().filter(t -> t.getName().equals("Accelerated[events-rows]")).count());
        List<PartitionTransformation<?>> batched = all.stream().filter(PartitionTransformation.class::isInstance)
                .<PartitionTransformation<?>>map(t -> (PartitionTransformation<?>) t)
                .filter(t -> t.getPartitioner() instanceof BatchChannelPartitioner).toList();
        assertEquals(2, batched.size());
        for (PartitionTransformation<?> exchange : batched) {
            Transformation<?> input = exchange.getInputs().get(0);
            assertEquals(InternalTypeInfo.of(BatchRecords.TYPE), input.getOutputType(),
                    "the records that cross the exchange are batch records: " + input);
        }
        assertEquals(1, batched.stream().filter(t -> t.getInputs().get(0) instanceof SideOutputTransformation).count());
    }

    @Test
    void aBranchTheExchangeCannotTakeKeepsItsRowsBesideABatchedOne() throws Exception {
        Rewritten rewritten = rewrite(PER_AUCTION + PER_SCORE);
        assertEquals(1, count(rewritten.report(), ": batches from Accelerated[events-rows] (branch "),
                rewritten.report());
        assertTrue(rewritten.report().contains("per-row exchange: key score of type DOUBLE"), rewritten.report());
        assertEquals(1, nodes(rewritten.graph(), BatchExchangeExecNode.class).size());

        List<Transformation<?>> all = transformations(rewritten.plans().translate(rewritten.graph()));
        PartitionTransformation<?> perRow = all.stream().filter(PartitionTransformation.class::isInstance)
                .<PartitionTransformation<?>>map(t -> (PartitionTransformation<?>) t)
                .filter(t -> t.getPartitioner() instanceof KeyGroupStreamPartitioner).findFirst().orElseThrow();
        assertNotEquals(InternalTypeInfo.of(BatchRecords.TYPE), perRow.getInputs().get(0).getOutputType(),
                "stock's hash exchange reads rows");
        PartitionTransformation<?> batched = all.stream().filter(PartitionTransformation.class::isInstance)
                .<PartitionTransformation<?>>map(t -> (PartitionTransformation<?>) t)
                .filter(t -> t.getPartitioner() instanceof BatchChannelPartitioner).findFirst().orElseThrow();
        assertEquals(InternalTypeInfo.of(BatchRecords.TYPE), batched.getInputs().get(0).getOutputType());
    }
}
