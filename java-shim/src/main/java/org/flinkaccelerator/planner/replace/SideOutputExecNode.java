package org.flinkaccelerator.planner.replace;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.streaming.api.transformations.SideOutputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.OutputTag;

/**
 * The rows of one more branch of a rows stage over a shared source: the side output {@code tag}
 * of the {@link AcceleratedExecNode} it reads (its only input). Translates to a
 * {@link SideOutputTransformation}, which adds no operator: the branch's consumers read the
 * stage's operator directly, chained to it as they would be to the source.
 */
public final class SideOutputExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private static final String CONTEXT = "accelerated-side-output_1";

    private final OutputTag<RowData> tag;

    public SideOutputExecNode(ReadableConfig config, OutputTag<RowData> tag, RowType rows) {
        this(ExecNodeContext.newNodeId(), config, tag, rows);
    }

    private SideOutputExecNode(int id, ReadableConfig config, OutputTag<RowData> tag, RowType rows) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT), rows,
                "SideOutput[" + tag.getId() + "]");
        this.tag = tag;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> stage = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return new SideOutputTransformation<>(stage, tag);
    }
}
