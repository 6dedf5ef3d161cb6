package org.flinkaccelerator.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * One stock exec node of an operator family found in a plan: the fields its export reads, or why
 * it stays stock before any export (then {@code fields} is null). The families' finders share the
 * walk ({@link #find}); each keeps only which node class it takes and how it reads its fields.
 *
 * @param <F> the family's fields ({@code RankNode}, {@code JoinNode}, ...)
 */
public record FoundNode<F>(ExecNode<?> node, F fields, FallbackReason stock) {

    public boolean readable() {
        return fields != null;
    }

    /**
     * Every node of exactly class {@code type} reachable from the roots, each once, sinks first,
     * with its fields as {@code read} gives them; a node whose fields this Flink does not have
     * ({@link StockFields.Missing}) is found stock with that reason.
     */
    public static <F> List<FoundNode<F>> find(ExecNodeGraph graph, Class<?> type, Function<ExecNode<?>, F> read) {
        return find(graph, Set.of(type), read);
    }

    /**
     * As {@link #find(ExecNodeGraph, Class, Function)} for a family of several node classes (the
     * window aggregate's single and global phases), found in one walk.
     */
    public static <F> List<FoundNode<F>> find(ExecNodeGraph graph, Set<? extends Class<?>> types,
            Function<ExecNode<?>, F> read) {
        return find(graph, types, read, node -> null);
    }

    /**
     * As {@link #find(ExecNodeGraph, Set, Function)}, and in the same walk each other node {@code
     * alsoStock} gives a reason for (the family's nodes it never accelerates), found stock with it.
     */
    public static <F> List<FoundNode<F>> find(ExecNodeGraph graph, Set<? extends Class<?>> types,
            Function<ExecNode<?>, F> read, Function<ExecNode<?>, FallbackReason> alsoStock) {
        List<FoundNode<F>> out = new ArrayList<>();
        for (ExecNode<?> node : ExecNodes.reachable(graph)) {
            if (types.contains(node.getClass())) {
                try {
                    out.add(new FoundNode<>(node, read.apply(node), null));
                } catch (StockFields.Missing e) {
                    out.add(new FoundNode<>(node, null, new FallbackReason("exec node", e.getMessage())));
                }
            } else {
                FallbackReason reason = alsoStock.apply(node);
                if (reason != null) {
                    out.add(new FoundNode<>(node, null, reason));
                }
            }
        }
        return out;
    }
}
