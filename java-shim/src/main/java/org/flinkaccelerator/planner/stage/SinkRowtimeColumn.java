package org.flinkaccelerator.planner.stage;

import java.util.List;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.RowtimeInserter;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecOverAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecRank;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.planner.dedup.AcceleratedDedupExecNode;
import org.flinkaccelerator.planner.over.AcceleratedOverAggExecNode;
import org.flinkaccelerator.planner.rank.AcceleratedRankExecNode;

/**
 * Flink's timestamp inserter of a sink ({@code StreamRecordTimestampInserter}): when the row the
 * sink gets holds a rowtime attribute (Flink's planning refuses more than one), the inserter
 * copies it into each record's timestamp, after the not-null enforcer has checked the same row;
 * with {@code table.exec.sink.rowtime-inserter} = DISABLED there is none. It reads the rowtime
 * without asking whether it is NULL, so what a NULL does depends on the row object the sink gets:
 * a GenericRowData (a format's row, from a source) or the BoxedWrapperRowData of a projecting Calc
 * hands it null and the job fails; a BinaryRowData (a deduplication's or Top-N's row, read from
 * its keyed exchange or state) reads a NULL TIMESTAMP(3) as epoch 0, and the row is written.
 * Flink copies each row it hands a chained operator, and the copy of any row but a BinaryRowData is
 * a GenericRowData, so the JoinedRowData of a Top-N's row and its rank number, or of an OVER
 * aggregate's row and its aggregates, fails; under object reuse it arrives as it is, and reads the
 * rowtime from the BinaryRowData it joins. A
 * stage names the rowtime's result column in its descriptor ({@code rowtime}) where the job fails,
 * and the sidecar checks it after the NOT NULL columns, row by row as Flink does.
 */
final class SinkRowtimeColumn {
    private SinkRowtimeColumn() {}

    /**
     * The result column whose NULL fails Flink's sink, or null when none does.
     *
     * @param planNames the names of the plan's result columns, in the order of the sink's input row
     */
    static String of(StreamExecSink sink, List<String> planNames, ReadableConfig config) {
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_ROWTIME_INSERTER) == RowtimeInserter.DISABLED) {
            return null;
        }
        RowType sinkInput = (RowType) sink.getInputEdges().get(0).getOutputType();
        for (int i = 0; i < sinkInput.getFieldCount(); i++) {
            if (LogicalTypeChecks.isRowtimeAttribute(sinkInput.getTypeAt(i))) {
                return handsOnNullTimestamps(sink.getInputEdges().get(0).getSource(),
                        config.get(PipelineOptions.OBJECT_REUSE)) ? planNames.get(i) : null;
            }
        }
        return null;
    }

    /**
     * Whether the rows {@code node} hands on give null for a NULL timestamp: a Calc that only
     * filters hands on its input's rows (Flink's CalcCodeGenerator collects them as they are); a
     * deduplication or Top-N (or the accelerated operator in its place, whose stock twin would be
     * there) hands on BinaryRowData, a Top-N selecting its rank number and an OVER aggregate a
     * JoinedRowData of that row and their own values, which gives null once copied, the input
     * row's reading under {@code objectReuse}; any other operator is taken to fail, as a source does.
     */
    static boolean handsOnNullTimestamps(ExecNode<?> node, boolean objectReuse) {
        if (node instanceof StreamExecCalc calc) {
            return !onlyFilters(calc) || handsOnNullTimestamps(calc.getInputEdges().get(0).getSource(), objectReuse);
        }
        if (node instanceof StreamExecDeduplicate || node instanceof AcceleratedDedupExecNode) {
            return false;
        }
        if (node instanceof StreamExecRank || node instanceof AcceleratedRankExecNode) {
            return !objectReuse && selectsOwnColumns(node);
        }
        if (node instanceof StreamExecOverAggregate || node instanceof AcceleratedOverAggExecNode) {
            return !objectReuse;
        }
        return true;
    }

    /** Whether {@code node}'s output row holds more columns than its input row (a Top-N's rank number). */
    private static boolean selectsOwnColumns(ExecNode<?> node) {
        return ((RowType) node.getOutputType()).getFieldCount()
                > ((RowType) node.getInputEdges().get(0).getOutputType()).getFieldCount();
    }

    /** Flink's test for a Calc that emits its input row: each output column is the input column at its position. */
    private static boolean onlyFilters(StreamExecCalc calc) {
        List<RexNode> projection = CalcPrograms.of(calc, calc.getDescription()).projection();
        if (projection.size() != ((RowType) calc.getInputEdges().get(0).getOutputType()).getFieldCount()) {
            return false;
        }
        for (int i = 0; i < projection.size(); i++) {
            if (!(projection.get(i) instanceof RexInputRef ref) || ref.getIndex() != i) {
                return false;
            }
        }
        return true;
    }
}
