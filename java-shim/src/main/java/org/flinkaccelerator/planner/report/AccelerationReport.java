package org.flinkaccelerator.planner.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;

/**
 * What the rewrite did with one plan: which Kafka segments run accelerated (and as which
 * operator), which stay stock Flink and why, which sinks end no segment, and which window
 * aggregates run accelerated. Filled by the rewrite rules; read by
 * {@code accelerator.fallback.fail-on-fallback} and by {@code accelerator explain}.
 */
public final class AccelerationReport {
    /** How a segment meets stock Flink operators. */
    public enum Shape {
        /** Kafka source to Kafka sink, or stock as a whole. */
        WHOLE,
        /** A rows stage: a Kafka source and Calcs whose rows go on to stock operators. */
        ROWS,
        /** An encode stage: Calcs and a Kafka sink fed by a stock operator's rows. */
        ENCODE
    }

    /**
     * One segment's outcome: {@code operator} is null when it stays stock, with {@code reasons}.
     * A partial one (a rows or encode stage, {@link Shape}) runs its nodes as {@code operator};
     * {@code reasons} then say why the next Calc (rows) or the one before (encode) does not run
     * accelerated too, when that is why the stage ends.
     */
    public record Segment(String name, List<ExecNode<?>> nodes, String operator, List<String> reasons,
            Shape shape) {
        public Segment {
            nodes = List.copyOf(nodes);
            reasons = List.copyOf(reasons);
        }

        public boolean accelerated() {
            return operator != null;
        }

        public boolean partial() {
            return shape != Shape.WHOLE;
        }
    }

    /**
     * One window aggregate seen with {@code accelerator.window-aggregate.enabled}: the stock node, and
     * the descriptor it runs with as {@code operator}, or why it stays stock (then {@code operator} is
     * null). A stock one is not a stock part for {@link FailOnFallback}: window aggregates are stock
     * whenever the option is off, and the option asks for them only where they can run.
     */
    public record WindowAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) implements StatefulOperator {
        public WindowAggregate {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One group aggregate seen with {@code accelerator.group-aggregate.enabled}, as a
     * {@link WindowAggregate} is: not a stock part for {@link FailOnFallback} when it stays stock.
     */
    public record GroupAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) implements StatefulOperator {
        public GroupAggregate {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One deduplication seen with {@code accelerator.deduplicate.enabled}, as a
     * {@link WindowAggregate} is: not a stock part for {@link FailOnFallback} when it stays stock.
     */
    public record Deduplication(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) implements StatefulOperator {
        public Deduplication {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One Top-N seen with {@code accelerator.top-n.enabled}, as a {@link WindowAggregate} is: not a
     * stock part for {@link FailOnFallback} when it stays stock.
     */
    public record TopN(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator)
            implements StatefulOperator {
        public TopN {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One regular join seen with {@code accelerator.join.enabled}, as a {@link WindowAggregate} is:
     * not a stock part for {@link FailOnFallback} when it stays stock.
     */
    public record Join(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator)
            implements StatefulOperator {
        public Join {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One OVER aggregate seen with {@code accelerator.over-aggregate.enabled}, as a
     * {@link WindowAggregate} is: not a stock part for {@link FailOnFallback} when it stays stock.
     */
    public record OverAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) implements StatefulOperator {
        public OverAggregate {
            reasons = List.copyOf(reasons);
        }
    }

    /** One group window aggregate seen with {@code accelerator.group-window-aggregate.enabled}, as an {@link OverAggregate} is. */
    public record GroupWindowAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) implements StatefulOperator {
        public GroupWindowAggregate {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * One window join seen with {@code accelerator.window-join.enabled}, as a {@link WindowAggregate}
     * is: not a stock part for {@link FailOnFallback} when it stays stock.
     */
    public record WindowJoin(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator)
            implements StatefulOperator {
        public WindowJoin {
            reasons = List.copyOf(reasons);
        }
    }

    /**
     * A stock operator that would have run inside an accelerated part (a local window aggregate
     * that could not fold into its rows stage): {@code what} it is, its name, why it stays stock. A
     * stock part, shown as its own kind rather than as a segment.
     */
    public record StockOperator(String what, String name, ExecNode<?> node, List<String> reasons) {
        public StockOperator {
            reasons = List.copyOf(reasons);
        }

        /** "<what> <name>: <reasons>", as the report names each stock part. */
        String line() {
            return what + " " + name + ": " + String.join("; ", reasons);
        }
    }

    /** A stateful operator the report lists in a section of its own: accelerated as {@code operator}, or stock for {@code reasons}. */
    public interface StatefulOperator {
        String name();

        ExecNode<?> node();

        String descriptor();

        List<String> reasons();

        String operator();

        default boolean accelerated() {
            return operator() != null;
        }
    }

    static final String OUTSIDE_SEGMENTS = "not part of a Kafka source -> Calc -> Kafka sink segment";

    private final List<Segment> segments = new ArrayList<>();
    private final List<StockOperator> stockOperators = new ArrayList<>();
    private final Set<String> notSegments = new LinkedHashSet<>();
    /** Sinks (summary identifiers) whose encode stage only accelerated operators feed. */
    private final Set<String> acceleratedSinks = new LinkedHashSet<>();
    private final List<WindowAggregate> windowAggregates = new ArrayList<>();
    private final List<GroupAggregate> groupAggregates = new ArrayList<>();
    private final List<Deduplication> deduplications = new ArrayList<>();
    private final List<TopN> topNs = new ArrayList<>();
    private final List<Join> joins = new ArrayList<>();
    private final List<OverAggregate> overAggregates = new ArrayList<>();
    private final List<GroupWindowAggregate> groupWindowAggregates = new ArrayList<>();
    private final List<String> exchanges = new ArrayList<>();
    private final List<WindowJoin> windowJoins = new ArrayList<>();

    public void accelerated(String name, List<ExecNode<?>> nodes, String operator) {
        segments.add(new Segment(name, nodes, operator, List.of(), Shape.WHOLE));
    }

    public void stock(String name, List<ExecNode<?>> nodes, List<String> reasons) {
        segments.add(new Segment(name, nodes, null, reasons, Shape.WHOLE));
    }

    /** A rows stage: {@code nodes} run as {@code operator}, whose rows go on to stock operators ({@link Segment}). */
    public void partial(String name, List<ExecNode<?>> nodes, String operator, List<String> stoppedBy) {
        segments.add(new Segment(name, nodes, operator, stoppedBy, Shape.ROWS));
    }

    /** An encode stage: {@code nodes} run as {@code operator}, fed by a stock operator's rows ({@link Segment}). */
    public void encoding(String name, List<ExecNode<?>> nodes, String operator, List<String> stoppedBy) {
        segments.add(new Segment(name, nodes, operator, stoppedBy, Shape.ENCODE));
    }

    /** {@code node}, {@code what} (a "local window aggregate"), stays stock for {@code reasons} ({@link StockOperator}). */
    public void stockOperator(String what, String name, ExecNode<?> node, List<String> reasons) {
        stockOperators.add(new StockOperator(what, name, node, reasons));
    }

    /** True when some part of the plan runs accelerated and some part on stock Flink. */
    public boolean isPartial() {
        return (segments.stream().anyMatch(Segment::accelerated)
                || windowAggregates.stream().anyMatch(WindowAggregate::accelerated)
                || groupAggregates.stream().anyMatch(GroupAggregate::accelerated)
                || deduplications.stream().anyMatch(Deduplication::accelerated)
                || topNs.stream().anyMatch(TopN::accelerated)
                || joins.stream().anyMatch(Join::accelerated)
                || overAggregates.stream().anyMatch(OverAggregate::accelerated)
                || groupWindowAggregates.stream().anyMatch(GroupWindowAggregate::accelerated)) && !stockParts().isEmpty();
    }

    /** A keyed shuffle before an accelerated operator: "<operator>: batches from <rows stage>" or why it carries rows. */
    public void exchange(String line) {
        exchanges.add(line);
    }

    /** A sink (or the whole plan) that is not a segment, with why: "<sink table>: <why>". */
    public void notSegment(String line) {
        notSegments.add(line);
    }

    /**
     * The sink {@code sink} (its summary identifier, as its "not a segment" line starts) runs as an
     * encode stage that only accelerated operators feed (rows stages, stateful operators, the
     * exchanges between them): though it ends no whole segment, no part of its pipeline is stock,
     * so its "not a segment" line is no stock part.
     */
    public void fedByAcceleratedOperators(String sink) {
        acceleratedSinks.add(sink);
    }

    /**
     * A window aggregate that runs as {@code operator} with {@code descriptor}, or stays stock for
     * {@code reasons} ({@code operator} null).
     */
    public void windowAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) {
        windowAggregates.add(new WindowAggregate(name, node, descriptor, reasons, operator));
    }

    public List<WindowAggregate> windowAggregates() {
        return Collections.unmodifiableList(windowAggregates);
    }

    /** A group aggregate that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void groupAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) {
        groupAggregates.add(new GroupAggregate(name, node, descriptor, reasons, operator));
    }

    public List<GroupAggregate> groupAggregates() {
        return Collections.unmodifiableList(groupAggregates);
    }

    /** A deduplication that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void deduplication(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) {
        deduplications.add(new Deduplication(name, node, descriptor, reasons, operator));
    }

    public List<Deduplication> deduplications() {
        return Collections.unmodifiableList(deduplications);
    }

    /** A Top-N that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void topN(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator) {
        topNs.add(new TopN(name, node, descriptor, reasons, operator));
    }

    public List<TopN> topNs() {
        return Collections.unmodifiableList(topNs);
    }

    /** A regular join that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void join(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator) {
        joins.add(new Join(name, node, descriptor, reasons, operator));
    }

    public List<Join> joins() {
        return Collections.unmodifiableList(joins);
    }

    /** An OVER aggregate that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void overAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) {
        overAggregates.add(new OverAggregate(name, node, descriptor, reasons, operator));
    }

    public List<OverAggregate> overAggregates() {
        return Collections.unmodifiableList(overAggregates);
    }

    /** A group window aggregate that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void groupWindowAggregate(String name, ExecNode<?> node, String descriptor, List<String> reasons,
            String operator) {
        groupWindowAggregates.add(new GroupWindowAggregate(name, node, descriptor, reasons, operator));
    }

    public List<GroupWindowAggregate> groupWindowAggregates() {
        return Collections.unmodifiableList(groupWindowAggregates);
    }

    /** A window join that runs as {@code operator} with {@code descriptor}, or stays stock for {@code reasons}. */
    public void windowJoin(String name, ExecNode<?> node, String descriptor, List<String> reasons, String operator) {
        windowJoins.add(new WindowJoin(name, node, descriptor, reasons, operator));
    }

    public List<WindowJoin> windowJoins() {
        return Collections.unmodifiableList(windowJoins);
    }

    public List<Segment> segments() {
        return Collections.unmodifiableList(segments);
    }

    /** One line per part of the plan that runs on stock Flink, with its reason; empty = all accelerated. */
    public List<String> stockParts() {
        List<String> out = new ArrayList<>();
        for (Segment segment : segments) {
            if (!segment.accelerated()) {
                out.add("segment " + segment.name() + ": " + String.join("; ", segment.reasons()));
            }
        }
        stockOperators.forEach(operator -> out.add(operator.line()));
        for (String line : notSegments) {
            if (acceleratedSinks.stream().noneMatch(sink -> line.startsWith(sink + ": "))) {
                out.add("not a segment: " + line);
            }
        }
        return out;
    }

    /**
     * The plan as a tree, sinks first, one ExecNode per line with Flink's description of it and
     * {@code [accelerated: <operator>]} or {@code [stock: <reason>]}, then the stock parts' reasons.
     */
    public String render(ExecNodeGraph graph) {
        Map<ExecNode<?>, String> markers = new IdentityHashMap<>();
        for (Segment segment : segments) {
            for (ExecNode<?> node : segment.nodes()) {
                markers.put(node, marker(segment));
            }
        }
        for (StockOperator operator : stockOperators) {
            markers.put(operator.node(), "[stock: " + operator.line() + "]");
        }
        for (WindowAggregate aggregate : windowAggregates) {
            markers.put(aggregate.node(), marker("window aggregate", aggregate));
        }
        for (GroupAggregate aggregate : groupAggregates) {
            markers.put(aggregate.node(), marker("group aggregate", aggregate));
        }
        for (Deduplication deduplication : deduplications) {
            markers.put(deduplication.node(), marker("deduplication", deduplication));
        }
        for (TopN topN : topNs) {
            markers.put(topN.node(), marker("Top-N", topN));
        }
        for (Join join : joins) {
            markers.put(join.node(), marker("join", join));
        }
        for (OverAggregate aggregate : overAggregates) {
            markers.put(aggregate.node(), marker("OVER aggregate", aggregate));
        }
        for (GroupWindowAggregate aggregate : groupWindowAggregates) {
            markers.put(aggregate.node(), marker("group window aggregate", aggregate));
        }
        for (WindowJoin join : windowJoins) {
            markers.put(join.node(), marker("window join", join));
        }
        StringBuilder out = new StringBuilder();
        Map<ExecNode<?>, Integer> shown = new IdentityHashMap<>();
        for (ExecNode<?> root : graph.getRootNodes()) {
            node(out, root, 0, markers, shown);
        }
        List<String> stock = stockParts();
        out.append(stock.isEmpty() ? "\nEvery part of this plan runs accelerated.\n"
                : (isPartial() ? "\nPartly accelerated.\n" : "\n") + "Runs on stock Flink:\n");
        for (String line : stock) {
            out.append("  ").append(line).append('\n');
        }
        renderStateful(out, WINDOW_AGGREGATES_HEADER, windowAggregates);
        renderStateful(out, GROUP_AGGREGATES_HEADER, groupAggregates);
        renderStateful(out, DEDUPLICATIONS_HEADER, deduplications);
        renderStateful(out, TOP_N_HEADER, topNs);
        renderStateful(out, JOINS_HEADER, joins);
        renderStateful(out, OVER_AGGREGATES_HEADER, overAggregates);
        renderStateful(out, GROUP_WINDOW_AGGREGATES_HEADER, groupWindowAggregates);
        if (!exchanges.isEmpty()) {
            out.append('\n').append(EXCHANGES_HEADER).append('\n');
            exchanges.forEach(line -> out.append("  ").append(line).append('\n'));
        }
        renderStateful(out, WINDOW_JOINS_HEADER, windowJoins);
        return out.toString();
    }

    static final String WINDOW_AGGREGATES_HEADER = "Window aggregates (accelerator.window-aggregate.enabled):";
    static final String GROUP_AGGREGATES_HEADER = "Group aggregates (accelerator.group-aggregate.enabled):";
    static final String DEDUPLICATIONS_HEADER = "Deduplications (accelerator.deduplicate.enabled):";
    static final String TOP_N_HEADER = "Top-N (accelerator.top-n.enabled):";
    static final String JOINS_HEADER = "Joins (accelerator.join.enabled):";
    static final String EXCHANGES_HEADER = "Keyed exchanges (accelerator.exchange.batched.enabled):";
    static final String OVER_AGGREGATES_HEADER = "OVER aggregates (accelerator.over-aggregate.enabled):";
    static final String GROUP_WINDOW_AGGREGATES_HEADER =
            "Group window aggregates (accelerator.group-window-aggregate.enabled):";
    static final String WINDOW_JOINS_HEADER = "Window joins (accelerator.window-join.enabled):";

    private static void renderStateful(StringBuilder out, String header, List<? extends StatefulOperator> operators) {
        if (operators.isEmpty()) {
            return;
        }
        out.append('\n').append(header).append('\n');
        for (StatefulOperator aggregate : operators) {
            if (aggregate.accelerated()) {
                out.append("  ").append(aggregate.name()).append(": runs as ").append(aggregate.operator())
                        .append(", descriptor:\n    ")
                        .append(aggregate.descriptor().strip().replace("\n", "\n    ")).append('\n');
            } else {
                out.append("  ").append(aggregate.name()).append(": stays stock: ")
                        .append(String.join("; ", aggregate.reasons())).append('\n');
            }
        }
    }

    private static void node(StringBuilder out, ExecNode<?> node, int depth, Map<ExecNode<?>, String> markers,
            Map<ExecNode<?>, Integer> shown) {
        out.append(depth == 0 ? "" : "   ".repeat(depth - 1) + "+- ").append(node.getDescription());
        Integer seen = shown.get(node);
        if (seen != null) {
            out.append("  (#").append(seen).append(", shown above)\n");
            return;
        }
        int number = shown.size() + 1;
        shown.put(node, number);
        out.append("  #").append(number).append("  ")
                .append(markers.getOrDefault(node, "[stock: " + OUTSIDE_SEGMENTS + "]")).append('\n');
        for (ExecEdge edge : node.getInputEdges()) {
            node(out, edge.getSource(), depth + 1, markers, shown);
        }
    }

    private static String marker(String what, StatefulOperator aggregate) {
        return aggregate.accelerated()
                ? "[accelerated: " + aggregate.operator() + "]"
                : "[stock: " + what + " " + aggregate.name() + ": " + String.join("; ", aggregate.reasons()) + "]";
    }

    private static String marker(Segment segment) {
        if (segment.shape() == Shape.ROWS) {
            return "[accelerated (partial): " + segment.operator() + ", rows to stock operators"
                    + (segment.reasons().isEmpty() ? "" : "; the next calc stays stock: "
                            + String.join("; ", segment.reasons())) + "]";
        }
        if (segment.shape() == Shape.ENCODE) {
            return "[accelerated (partial): " + segment.operator() + ", rows from stock operators"
                    + (segment.reasons().isEmpty() ? "" : "; the calc before stays stock: "
                            + String.join("; ", segment.reasons())) + "]";
        }
        if (segment.accelerated()) {
            return "[accelerated: " + segment.operator() + "]";
        }
        return "[stock: " + String.join("; ", segment.reasons()) + "]";
    }
}
