package org.flinkaccelerator.planner.exchange;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.exchange.BatchChannelPartitioner;

/**
 * The keyed shuffle between a rows stage and an accelerated keyed operator, carrying batches: it
 * stands where stock's hash exchange stood and translates to a {@link PartitionTransformation}
 * with the {@link BatchChannelPartitioner}. Its row type is the rows' (what the graph's nodes and
 * EXPLAIN see); the records that cross it are {@code BatchRecords}, which its input emits and its
 * consumer reads.
 */
public final class BatchExchangeExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private static final String CONTEXT = "accelerated-batch-exchange_1";

    public BatchExchangeExecNode(ReadableConfig config, RowType rows, String description) {
        this(ExecNodeContext.newNodeId(), config, rows, description);
    }

    private BatchExchangeExecNode(int id, ReadableConfig config, RowType rows, String description) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT), rows, description);
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> input = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        PartitionTransformation<RowData> exchange = new PartitionTransformation<>(input, new BatchChannelPartitioner());
        exchange.setName(getDescription());
        return exchange;
    }
}
