package org.flinkaccelerator.planner.windowagg;

import static org.flinkaccelerator.planner.windowagg.WindowAggPlans.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalWindowAggregate;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.GraphRewriter;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.AccelerateWindowAggregates;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.junit.jupiter.api.Test;

/**
 * The rule is report only: without {@code accelerator.window-aggregate.enabled} it adds nothing to
 * the report; with it, the report names each window aggregate with its descriptor or its reasons,
 * and the plan stays exactly the one stock Flink would run.
 */
class AccelerateWindowAggregatesTest {
    private static final String TUMBLE = query("auction, window_start, window_end, COUNT(*), SUM(price)",
            WindowAggExportTest.TUMBLE_10S, WindowAggExportTest.BY_AUCTION);
    private static final String HOP = query("auction, window_start, window_end, COUNT(*)",
            "HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)", WindowAggExportTest.BY_AUCTION);

    private static WindowAggPlans plans(boolean enabled) {
        return new WindowAggPlans().set(AcceleratorOptions.ENABLED.key(), "true")
                .set(AcceleratorOptions.WINDOW_AGGREGATE.key(), Boolean.toString(enabled));
    }

    /** Every node reachable from the roots with its inputs, by identity, so any change to the graph shows. */
    private static List<Object> shape(ExecNodeGraph graph) {
        Set<ExecNode<?>> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Object> out = new ArrayList<>();
        List<ExecNode<?>> pending = new ArrayList<>(graph.getRootNodes());
        while (!pending.isEmpty()) {
            ExecNode<?> node = pending.remove(0);
            if (seen.add(node)) {
                out.add(node);
                for (ExecEdge edge : node.getInputEdges()) {
                    out.add(edge);
                    out.add(edge.getSource());
                    pending.add(edge.getSource());
                }
            }
        }
        return out;
    }

    /** The node types and descriptions, sinks first: what two separately planned graphs can share. */
    private static List<String> described(ExecNodeGraph graph) {
        return shape(graph).stream().filter(o -> o instanceof ExecNode<?>).map(o -> (ExecNode<?>) o)
                .map(n -> n.getClass().getSimpleName() + "[" + n.getDescription() + "]").toList();
    }

    @Test
    void offByDefault() {
        assertFalse(new WindowAggPlans().plans().config().get(AcceleratorOptions.WINDOW_AGGREGATE));
    }

    @Test
    void withTheOptionOffThereAreNoReportEntriesAndNoPlanChange() {
        WindowAggPlans plans = plans(false);
        ExecNodeGraph graph = plans.plan(TUMBLE);
        List<Object> before = shape(graph);
        AccelerationReport report = new AccelerationReport();
        assertSame(graph, new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report));
        assertEquals(before, shape(graph));
        assertEquals(List.of(), report.windowAggregates());
        assertEquals(List.of(), report.segments());
        assertFalse(report.render(graph).contains("window aggregate"), report.render(graph));
    }

    @Test
    void withTheOptionOnTheReportHasTheDescriptorAndThePlanStaysStock() throws Exception {
        WindowAggPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(TUMBLE);
        List<Object> before = shape(graph);
        AccelerationReport report = new AccelerationReport();
        assertSame(graph, new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report));
        assertEquals(before, shape(graph), "no node or edge replaced");

        assertEquals(1, report.windowAggregates().size());
        AccelerationReport.WindowAggregate aggregate = report.windowAggregates().get(0);
        assertEquals("bids-window-agg", aggregate.name());
        assertTrue(aggregate.node() instanceof StreamExecGlobalWindowAggregate, aggregate.node().toString());
        assertTrue(aggregate.wouldAccelerate());
        JsonNode descriptor = new ObjectMapper().readTree(aggregate.descriptor());
        assertEquals("window_agg", descriptor.get("kind").asText());
        assertEquals("global", descriptor.get("phase").asText());
        assertEquals(List.of(), report.stockParts(), "report only: nothing counts as a fallback");

        String rendered = report.render(graph);
        String line = rendered.lines().filter(l -> l.contains("GlobalWindowAggregate")).findFirst().orElseThrow();
        assertTrue(line.endsWith("[stock (report only): window aggregate bids-window-agg would run accelerated]"), line);
        assertTrue(rendered.contains("\nWindow aggregates (accelerator.window-aggregate.enabled is report only: each"
                + " still runs on stock Flink):\n  bids-window-agg: would run accelerated, descriptor:\n    {\n"
                + "      \"protocol\": 1,\n      \"kind\": \"window_agg\",\n"), rendered);
    }

    @Test
    void aStockWindowAggregateShowsItsReasonInTheTreeAndTheSummary() {
        WindowAggPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(HOP);
        AccelerationReport report = new AccelerationReport();
        new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report);
        AccelerationReport.WindowAggregate aggregate = report.windowAggregates().get(0);
        assertFalse(aggregate.wouldAccelerate());
        assertEquals(List.of("window: HOP windows are not accelerated; only TUMBLE is"), aggregate.reasons());
        String rendered = report.render(graph);
        assertTrue(rendered.contains("[stock: window aggregate bids-window-agg: window: HOP windows are not accelerated;"
                + " only TUMBLE is]\n"), rendered);
        assertTrue(rendered.contains("\n  bids-window-agg: stays stock: window: HOP windows are not accelerated; only"
                + " TUMBLE is\n"), rendered);
    }

    @Test
    void twoWindowAggregatesOverOneTableGetTwoNames() {
        WindowAggPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan("SELECT window_start, window_end, MAX(c) FROM (" + TUMBLE.replace("SUM(price)",
                "SUM(price) AS c") + ") GROUP BY window_start, window_end");
        AccelerationReport report = new AccelerationReport();
        new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report);
        assertEquals(List.of("bids-window-agg", "bids-window-agg-2"),
                report.windowAggregates().stream().map(AccelerationReport.WindowAggregate::name).toList());
    }

    @Test
    void theWholeRewriteGivesTheSamePlanWithTheOptionOnAsOff() {
        WindowAggPlans off = plans(false);
        WindowAggPlans on = plans(true);
        ExecNodeGraph rewrittenOff = new GraphRewriter(RewriteRules.all()).rewrite(off.plan(TUMBLE), off.plans().config());
        ExecNodeGraph rewrittenOn = new GraphRewriter(RewriteRules.all()).rewrite(on.plan(TUMBLE), on.plans().config());
        assertEquals(described(rewrittenOff), described(rewrittenOn));
        assertTrue(described(rewrittenOn).stream().anyMatch(d -> d.startsWith("StreamExecGlobalWindowAggregate")),
                described(rewrittenOn).toString());
    }
}
