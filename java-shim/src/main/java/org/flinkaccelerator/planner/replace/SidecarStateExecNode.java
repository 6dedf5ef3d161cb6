package org.flinkaccelerator.planner.replace;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
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
import org.flinkaccelerator.runtime.state.SidecarStateSpec;

/**
 * The ExecNode of a keyed operator whose state lives in the Python sidecar: it takes the stock
 * node's input edge and output row and translates with the stock node's shape, one
 * {@link OneInputTransformation} running the operator at its input's parallelism, keyed by the key
 * selector stock builds for the same grouping (the one the keyed exchange before it uses), with a
 * managed-memory weight for the sidecar's state and the PYTHON use case at slot scope for its
 * Arrow buffers. Its uid (when {@code table.exec.uid.generation} gives one) ends in the
 * node's own uid name, never stock's, so uid-matched savepoints do not cross.
 *
 * @param <S> the operator's spec
 */
public abstract class SidecarStateExecNode<S extends SidecarStateSpec> extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private final S spec;
    private final int[] grouping;
    private final String uidName;
    private final long memoryWeight;
    private final String computes;

    /**
     * @param context the node's context name and version ("accelerated-window-aggregate_1")
     * @param uidName the end of the transformation's uid, never stock's
     * @param memoryWeight the managed-memory weight the transformation declares for the sidecar's state
     * @param computes what the operator computes, for the transformation's description ("window aggregate")
     * @param spec the operator's spec (descriptor and input)
     * @param grouping the key fields of the input rows, as the stock node's {@code grouping}
     * @param outputType the stock node's output row
     */
    protected SidecarStateExecNode(String context, String uidName, long memoryWeight, String computes,
            ReadableConfig config, S spec, int[] grouping, RowType outputType) {
        this(ExecNodeContext.newNodeId(), context, uidName, memoryWeight, computes, config, spec, grouping,
                outputType);
    }

    private SidecarStateExecNode(int id, String context, String uidName, long memoryWeight, String computes,
            ReadableConfig config, S spec, int[] grouping, RowType outputType) {
        super(id, new ExecNodeContext(context).withId(id), config, List.of(InputProperty.DEFAULT), outputType,
                spec.operatorName());
        this.spec = spec;
        this.grouping = grouping.clone();
        this.uidName = uidName;
        this.memoryWeight = memoryWeight;
        this.computes = computes;
    }

    public S spec() {
        return spec;
    }

    protected abstract OneInputStreamOperator<RowData, RowData> createOperator();

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
                createTransformationMeta(uidName, config), SimpleOperatorFactory.of(createOperator()),
                InternalTypeInfo.of((RowType) getOutputType()), input.getParallelism(), memoryWeight, false);
        RowDataKeySelector keys = KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(),
                grouping, InternalTypeInfo.of(inputType));
        // Named as the other accelerated operators are (the web UI, ManagedMemoryTest).
        transformation.setName(spec.operatorName());
        transformation.setDescription(spec.operatorName() + ": " + computes + " in the Python sidecar");
        transformation.setStateKeySelector(keys);
        transformation.setStateKeyType(keys.getProducedType());
        transformation.declareManagedMemoryUseCaseAtSlotScope(ManagedMemoryUseCase.PYTHON);
        return transformation;
    }
}
