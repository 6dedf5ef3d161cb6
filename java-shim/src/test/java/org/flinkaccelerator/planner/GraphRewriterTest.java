package org.flinkaccelerator.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.RewriteRule;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.junit.jupiter.api.Test;

class GraphRewriterTest {

    @Test
    void withoutRulesTheGraphIsReturnedUntouched() {
        ExecNodeGraph graph = graph();
        assertSame(graph, new GraphRewriter(List.of()).rewrite(graph, new Configuration()));
    }

    @Test
    void todaysRulesLeaveAGraphWithoutKafkaSegmentsUntouched() {
        ExecNodeGraph graph = graph();
        assertEquals(List.of("accelerate-window-aggregates", "accelerate-group-aggregates", "accelerate-deduplicates",
                "accelerate-top-n", "accelerate-joins", "accelerate-over-aggregates", "accelerate-group-window-aggregates",
                "accelerate-window-joins", "export-kafka-segments",
                "accelerate-kafka-sources", "accelerate-batch-exchanges", "accelerate-kafka-sinks"),
                RewriteRules.all().stream().map(RewriteRule::name).collect(Collectors.toList()),
                "a rule was added: extend the end-to-end tests");
        assertSame(graph, new GraphRewriter(RewriteRules.all()).rewrite(graph, new Configuration()));
    }

    @Test
    void rulesRunInOrderEachOnThePreviousResult() {
        ExecNodeGraph first = graph();
        ExecNodeGraph second = graph();
        ExecNodeGraph third = graph();
        List<String> calls = new ArrayList<>();
        GraphRewriter rewriter = new GraphRewriter(List.of(
                rule("a", first, second, calls), rule("b", second, third, calls)));
        assertSame(third, rewriter.rewrite(first, new Configuration()));
        assertEquals(List.of("a", "b"), calls);
    }

    @Test
    void describesEveryReachableNodeOnceSinksFirst() {
        ExecNode<?> source = node(1, "Source", List.of());
        ExecNode<?> calc = node(2, "Calc", List.of(source));
        ExecNode<?> sinkA = node(3, "SinkA", List.of(calc));
        ExecNode<?> sinkB = node(4, "SinkB", List.of(calc));
        List<String> described = GraphRewriter.describe(new ExecNodeGraph(List.of(sinkA, sinkB)));
        assertEquals(4, described.size(), described.toString());
        assertTrue(described.get(0).startsWith("3:") && described.get(0).endsWith("[SinkA]"), described.get(0));
        assertTrue(described.get(3).startsWith("1:") && described.get(3).endsWith("[Source]"), described.toString());
    }

    /** A graph with one dummy node; the rewriter only passes graphs along. */
    private static ExecNodeGraph graph() {
        return new ExecNodeGraph(List.of(node(1, "only", List.of())));
    }

    /** Just enough of an ExecNode for graph walking: id, description, input edges. */
    private static ExecNode<?> node(int id, String description, List<ExecNode<?>> inputs) {
        List<ExecEdge> edges = new ArrayList<>();
        ExecNode<?> node = (ExecNode<?>) Proxy.newProxyInstance(ExecNode.class.getClassLoader(),
                new Class<?>[] {ExecNode.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "getId": return id;
                        case "getDescription": return description;
                        case "getInputEdges": return edges;
                        case "hashCode": return System.identityHashCode(proxy);
                        case "equals": return proxy == args[0];
                        case "toString": return description;
                        default: throw new UnsupportedOperationException(method.getName());
                    }
                });
        for (ExecNode<?> input : inputs) {
            edges.add(ExecEdge.builder().source(input).target(node).build());
        }
        return node;
    }

    private static RewriteRule rule(String name, ExecNodeGraph expected, ExecNodeGraph result, List<String> calls) {
        return new RewriteRule() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
                assertSame(expected, graph);
                calls.add(name);
                return result;
            }
        };
    }
}
