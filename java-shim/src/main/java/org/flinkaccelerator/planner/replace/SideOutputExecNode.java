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
    private final int branch;

    /**
     * @param tag the stage's side output ({@code AcceleratedSegmentSpec.sideOutput(branch)})
     * @param rows the branch's row type (what the graph's nodes and EXPLAIN see, also where the
     *     side output carries batch records for a batch exchange)
     * @param branch the branch of the stage whose rows it is, from 1
     */
    public SideOutputExecNode(ReadableConfig config, OutputTag<RowData> tag, RowType rows, int branch) {
        this(ExecNodeContext.newNodeId(), config, tag, rows, branch);
    }

    private SideOutputExecNode(int id, ReadableConfig config, OutputTag<RowData> tag, RowType rows, int branch) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT), rows,
                "SideOutput[" + tag.getId() + "]");
        this.tag = tag;
        this.branch = branch;
    }

    /** The branch of the rows stage whose rows this is (1 for the descriptor's first {@code branches} entry). */
    public int branch() {
        return branch;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        Transformation<RowData> stage = (Transformation<RowData>) getInputEdges().get(0).translateToPlan(planner);
        return new SideOutputTransformation<>(stage, tag);
    }
}
