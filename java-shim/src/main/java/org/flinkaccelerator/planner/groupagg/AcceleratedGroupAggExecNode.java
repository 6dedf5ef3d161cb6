package org.flinkaccelerator.planner.groupagg;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeContext;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.SingleTransformationTranslator;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.utils.ExecNodeUtil;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.groupagg.AcceleratedGroupAggOperator;
import org.flinkaccelerator.runtime.groupagg.GroupAggSpec;

/**
 * The ExecNode of an accelerated group aggregate: the stock node's input edge, output row and
 * key selector, one {@link OneInputTransformation} running {@link AcceleratedGroupAggOperator} at
 * its input's parallelism, with the PYTHON managed-memory use case at slot scope for its Arrow
 * buffers and the OPERATOR weight of stock's window aggregate for its state. Its uid (when
 * {@code table.exec.uid.generation} gives one) ends in {@value #UID_NAME}, never stock's
 * {@code group-aggregate}, so uid-matched savepoints do not cross.
 */
public final class AcceleratedGroupAggExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    static final String CONTEXT = "accelerated-group-aggregate_1";
    static final String UID_NAME = "accelerated-group-aggregate";
    /** The managed-memory weight declared for the sidecar's state (stock's group aggregate keeps it on heap). */
    static final long MEMORY_WEIGHT = 100L;

    private final GroupAggSpec spec;
    private final int[] grouping;

    public AcceleratedGroupAggExecNode(ReadableConfig config, GroupAggSpec spec, int[] grouping, RowType outputType) {
        this(ExecNodeContext.newNodeId(), config, spec, grouping, outputType);
    }

    private AcceleratedGroupAggExecNode(int id, ReadableConfig config, GroupAggSpec spec, int[] grouping,
            RowType outputType) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT), outputType,
                spec.operatorName());
        this.spec = spec;
        this.grouping = grouping.clone();
    }

    public GroupAggSpec spec() {
        return spec;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = (Transformation<RowData>) inputEdge.translateToPlan(planner);
        RowType inputType = (RowType) inputEdge.getOutputType();
        if (!inputType.equals(spec.inputType())) {
            throw new IllegalStateException(spec.operatorName() + ": the node's input " + inputType
                    + " is not the spec's " + spec.inputType());
        }
        OneInputTransformation<RowData, RowData> transformation = ExecNodeUtil.createOneInputTransformation(input,
                createTransformationMeta(UID_NAME, config),
                SimpleOperatorFactory.of(new AcceleratedGroupAggOperator(spec)),
                InternalTypeInfo.of((RowType) getOutputType()), input.getParallelism(), MEMORY_WEIGHT, false);
        RowDataKeySelector keys = KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(),
                grouping, InternalTypeInfo.of(inputType));
        transformation.setName(spec.operatorName());
        transformation.setDescription(spec.operatorName() + ": group aggregate in the Python sidecar");
        transformation.setStateKeySelector(keys);
        transformation.setStateKeyType(keys.getProducedType());
        transformation.declareManagedMemoryUseCaseAtSlotScope(ManagedMemoryUseCase.PYTHON);
        return transformation;
    }
}
