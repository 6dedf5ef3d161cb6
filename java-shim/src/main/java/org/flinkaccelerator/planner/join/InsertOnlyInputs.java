package org.flinkaccelerator.planner.join;

import java.util.Set;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSourceSpec;
import org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecIntervalJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecUnion;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWatermarkAssigner;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowDeduplicate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowRank;
import org.apache.flink.table.runtime.operators.join.FlinkJoinType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.planner.windowagg.AcceleratedWindowAggExecNode;
import org.flinkaccelerator.planner.windowagg.StockFields;

/**
 * Whether a join input is insert-only. The exec graph keeps no changelog modes (they were traits of
 * the physical plan), so this follows the input up to its sources through nodes that pass rows on
 * with their kinds (exchanges, Calcs, watermark assigners, unions) and through regular INNER and SEMI
 * joins (StreamingJoinOperator emits an inner join's rows, StreamingSemiAntiJoinOperator a semi join's
 * left rows, with the input row's kind, so inserts only from insert-only inputs: a join of three or
 * more tables, {@code IN} after {@code IN}), and asks each source scan for its changelog mode. The
 * window TVF operators (aggregate, its global phase, top-N, deduplication, join) and interval joins
 * emit inserts only whatever they read (each window or pair is emitted once, when the watermark
 * passes it: Flink's changelog-mode inference gives them INSERT_ONLY), so the walk ends there, as it
 * does at the accelerated window aggregate that replaces one. Any other node on the way (an outer or
 * anti join among them: they retract rows) leaves it unknown, and the join stays stock.
 */
final class InsertOnlyInputs {
    /** The nodes whose output is insert-only when all their inputs are. */
    private static final Set<Class<?>> PASS_KINDS = Set.of(StreamExecExchange.class, StreamExecCalc.class,
            StreamExecWatermarkAssigner.class, StreamExecUnion.class);

    /** The nodes whose output is insert-only whatever their inputs are. */
    private static final Set<Class<?>> EMIT_INSERTS = Set.of(StreamExecWindowAggregate.class,
            StreamExecGlobalWindowAggregate.class, StreamExecWindowRank.class, StreamExecWindowDeduplicate.class,
            StreamExecWindowJoin.class, StreamExecIntervalJoin.class, AcceleratedWindowAggExecNode.class);

    private InsertOnlyInputs() {}

    /** Null when {@code input}'s rows are all inserts, else why that is not known. */
    static String problem(ExecNode<?> input) {
        if (input.getClass() == StreamExecTableSourceScan.class) {
            return sourceProblem((StreamExecTableSourceScan) input);
        }
        if (EMIT_INSERTS.contains(input.getClass())) {
            return null;
        }
        if (!PASS_KINDS.contains(input.getClass()) && !passesInsertsJoin(input)) {
            return "it is fed by " + input.getDescription() + ", whose output is not known to be insert-only";
        }
        for (ExecEdge edge : input.getInputEdges()) {
            String problem = problem(edge.getSource());
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static boolean passesInsertsJoin(ExecNode<?> node) {
        if (node.getClass() != StreamExecJoin.class) {
            return false;
        }
        FlinkJoinType type = ((JoinSpec) StockFields.read(node, StreamExecJoin.class, "joinSpec")).getJoinType();
        return type == FlinkJoinType.INNER || type == FlinkJoinType.SEMI;
    }

    private static String sourceProblem(StreamExecTableSourceScan scan) {
        DynamicTableSourceSpec spec = scan.getTableSourceSpec();
        Object source = StockFields.read(spec, DynamicTableSourceSpec.class, "tableSource");
        String table = spec.getContextResolvedTable().getIdentifier().asSummaryString();
        if (!(source instanceof ScanTableSource scanSource)) {
            return "the planner has not kept the source of " + table + ", so its changelog mode is not known";
        }
        ChangelogMode mode = scanSource.getChangelogMode();
        if (!mode.containsOnly(RowKind.INSERT)) {
            return "its source " + table + " produces " + mode + " (updates or deletes), not inserts only";
        }
        return null;
    }
}
