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
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.GraphRewriter;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.AccelerateWindowAggregates;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.junit.jupiter.api.Test;

/**
 * Without {@code accelerator.window-aggregate.enabled} the rule adds nothing to the report and
 * changes nothing; with it, each window aggregate exported without a stock reason is replaced by an
 * {@link AcceleratedWindowAggExecNode} on the same input edge, and the report names each window
 * aggregate with its operator and descriptor or its reasons.
 */
class AccelerateWindowAggregatesTest {
    private static final String TUMBLE = query("auction, window_start, window_end, COUNT(*), SUM(price)",
            WindowAggExportTest.TUMBLE_10S, WindowAggExportTest.BY_AUCTION);
    private static final String SESSION = query("auction, window_start, window_end, COUNT(*)",
            "SESSION(TABLE bids PARTITION BY auction, DESCRIPTOR(ts), INTERVAL '10' SECOND)",
            WindowAggExportTest.BY_AUCTION);

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

    /** The nodes reading {@code source}, by identity. */
    private static List<ExecNode<?>> consumers(ExecNodeGraph graph, ExecNode<?> source) {
        List<ExecNode<?>> out = new ArrayList<>();
        for (Object o : shape(graph)) {
            if (o instanceof ExecEdge edge && edge.getSource() == source && !out.contains(edge.getTarget())) {
                out.add(edge.getTarget());
            }
        }
        return out;
    }

    @Test
    void withTheOptionOnTheNodeIsReplacedOnTheSameInputEdgeAndReported() throws Exception {
        WindowAggPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(TUMBLE);
        ExecNode<?> stock = WindowAggNode.find(graph).get(0).node();
        List<ExecNode<?>> stockConsumers = consumers(graph, stock);
        ExecEdge stockInput = stock.getInputEdges().get(0);
        AccelerationReport report = new AccelerationReport();
        assertSame(graph, new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report));

        assertFalse(shape(graph).contains(stock), "the stock node is no longer in the plan");
        assertEquals(1, stockConsumers.size());
        ExecEdge read = stockConsumers.get(0).getInputEdges().get(0);
        AcceleratedWindowAggExecNode accelerated = (AcceleratedWindowAggExecNode) read.getSource();
        ExecEdge input = accelerated.getInputEdges().get(0);
        assertSame(stockInput.getSource(), input.getSource(), "the same input (the keyed exchange)");
        assertSame(accelerated, input.getTarget());
        assertEquals(stockInput.getShuffle(), input.getShuffle());
        assertEquals(stock.getOutputType(), accelerated.getOutputType());
        assertEquals("global", accelerated.spec().phase());
        assertEquals(stock.getInputEdges().get(0).getOutputType(), accelerated.spec().inputType());
        assertEquals(accelerated.spec().inputType().getFieldCount() - 1, accelerated.spec().timeIndex(),
                "global phase: $time is the slice end, the last input field");

        assertEquals(1, report.windowAggregates().size());
        AccelerationReport.WindowAggregate aggregate = report.windowAggregates().get(0);
        assertEquals("bids-window-agg", aggregate.name());
        assertTrue(aggregate.node() instanceof StreamExecGlobalWindowAggregate, aggregate.node().toString());
        assertTrue(aggregate.accelerated());
        assertEquals("Accelerated[bids-window-agg]", aggregate.operator());
        assertEquals(accelerated.spec().descriptorJson(), aggregate.descriptor());
        JsonNode descriptor = new ObjectMapper().readTree(aggregate.descriptor());
        assertEquals("window_agg", descriptor.get("kind").asText());
        assertEquals("global", descriptor.get("phase").asText());
        assertEquals(List.of(), report.stockParts(), "an accelerated window aggregate is no fallback");

        // The report renders the plan Flink handed in (the planner puts the edges back first).
        String rendered = report.render(plans(true).plan(TUMBLE));
        assertTrue(rendered.contains("\nWindow aggregates (accelerator.window-aggregate.enabled):\n"
                + "  bids-window-agg: runs as Accelerated[bids-window-agg], descriptor:\n    {\n"
                + "      \"protocol\": 1,\n      \"kind\": \"window_agg\",\n"), rendered);
        AccelerationReport marked = new AccelerationReport();
        ExecNodeGraph fresh = plans(true).plan(TUMBLE);
        marked.windowAggregate("bids-window-agg", WindowAggNode.find(fresh).get(0).node(), "{}", List.of(),
                "Accelerated[bids-window-agg]");
        String line = marked.render(fresh).lines().filter(l -> l.contains("GlobalWindowAggregate")).findFirst()
                .orElseThrow();
        assertTrue(line.endsWith("[accelerated: Accelerated[bids-window-agg]]"), line);
    }

    @Test
    void aOnePhaseWindowAggregateIsReplacedWithItsRowtimeAsTime() {
        WindowAggPlans plans = plans(true).set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        ExecNodeGraph graph = plans.plan(TUMBLE);
        FoundNode<WindowAggNode> found = WindowAggNode.find(graph).get(0);
        int rowtime = ((org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy)
                found.fields().windowing()).getTimeAttributeIndex();
        ExecNode<?> consumer = consumers(graph, found.node()).get(0);
        new AccelerateWindowAggregates().apply(graph, plans.plans().config(), new AccelerationReport());
        AcceleratedWindowAggExecNode accelerated = (AcceleratedWindowAggExecNode) consumer.getInputEdges().get(0)
                .getSource();
        assertEquals("single", accelerated.spec().phase());
        assertEquals(rowtime, accelerated.spec().timeIndex());
    }

    @Test
    void aStockWindowAggregateShowsItsReasonInTheTreeAndTheSummary() {
        WindowAggPlans plans = plans(true);
        ExecNodeGraph graph = plans.plan(SESSION);
        AccelerationReport report = new AccelerationReport();
        new AccelerateWindowAggregates().apply(graph, plans.plans().config(), report);
        AccelerationReport.WindowAggregate aggregate = report.windowAggregates().get(0);
        assertFalse(aggregate.accelerated());
        assertEquals(List.of("window: SESSION windows are not accelerated; only TUMBLE, HOP and CUMULATE are"),
                aggregate.reasons());
        String rendered = report.render(graph);
        assertTrue(rendered.contains("[stock: window aggregate bids-window-agg: window: SESSION windows are not"
                + " accelerated; only TUMBLE, HOP and CUMULATE are]\n"), rendered);
        assertTrue(rendered.contains("\n  bids-window-agg: stays stock: window: SESSION windows are not accelerated;"
                + " only TUMBLE, HOP and CUMULATE are\n"), rendered);
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
    void theWholeRewriteDiffersFromTheOptionOffOnlyInTheWindowAggregate() {
        // The per-row exchange on both sides: with the batch exchange (on by default) the option also
        // swaps the exchange before the aggregate, which the batch-exchange tests cover.
        WindowAggPlans off = plans(false).set(AcceleratorOptions.EXCHANGE_BATCHED.key(), "false");
        WindowAggPlans on = plans(true).set(AcceleratorOptions.EXCHANGE_BATCHED.key(), "false");
        ExecNodeGraph rewrittenOff = new GraphRewriter(RewriteRules.all()).rewrite(off.plan(TUMBLE), off.plans().config());
        ExecNodeGraph rewrittenOn = new GraphRewriter(RewriteRules.all()).rewrite(on.plan(TUMBLE), on.plans().config());
        List<String> expected = described(rewrittenOff).stream().map(d -> d.startsWith("StreamExecGlobalWindowAggregate")
                ? "AcceleratedWindowAggExecNode[Accelerated[bids-window-agg]]" : d).toList();
        assertTrue(described(rewrittenOff).stream().anyMatch(d -> d.startsWith("StreamExecGlobalWindowAggregate")),
                described(rewrittenOff).toString());
        assertEquals(expected, described(rewrittenOn));
    }
}
