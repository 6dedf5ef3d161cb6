package org.flinkaccelerator.planner.windowagg;

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
import org.flinkaccelerator.runtime.windowagg.AcceleratedWindowAggOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggSpec;

/**
 * The ExecNode of an accelerated window aggregate (docs/design/stateful-window-aggregate.md §2): it
 * takes the stock node's input edge and output row and translates with the stock node's shape, so
 * the job graph, slot sharing and memory stay as stock: one {@link OneInputTransformation} running
 * {@link AcceleratedWindowAggOperator} at its input's parallelism, keyed by the key selector stock
 * builds for the same grouping (the one the keyed exchange before it uses), with the stock window
 * aggregate's managed-memory weight, and the PYTHON use case at slot scope for its Arrow buffers.
 * Its uid (when {@code table.exec.uid.generation} gives one) ends in
 * {@value #UID_NAME}, never stock's {@code window-aggregate}, so uid-matched savepoints do not cross.
 * {@code AccelerateWindowAggregates} puts it in place of the stock node when
 * {@code accelerator.window-aggregate.enabled} is set.
 */
public final class AcceleratedWindowAggExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    static final String CONTEXT = "accelerated-window-aggregate_1";
    static final String UID_NAME = "accelerated-window-aggregate";
    /** Stock's WINDOW_AGG_MEMORY_RATIO: the managed-memory weight its transformation declares. */
    static final long MEMORY_WEIGHT = 100L;

    private final WindowAggSpec spec;
    private final int[] grouping;

    /**
     * @param spec the operator's spec (descriptor and input)
     * @param grouping the key fields of the input rows, as the stock node's {@code grouping}
     * @param outputType the stock node's output row
     */
    public AcceleratedWindowAggExecNode(ReadableConfig config, WindowAggSpec spec, int[] grouping, RowType outputType) {
        this(ExecNodeContext.newNodeId(), config, spec, grouping, outputType);
    }

    private AcceleratedWindowAggExecNode(int id, ReadableConfig config, WindowAggSpec spec, int[] grouping,
            RowType outputType) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT), outputType,
                spec.operatorName());
        this.spec = spec;
        this.grouping = grouping.clone();
    }

    public WindowAggSpec spec() {
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
                SimpleOperatorFactory.of(new AcceleratedWindowAggOperator(spec)),
                InternalTypeInfo.of((RowType) getOutputType()), input.getParallelism(), MEMORY_WEIGHT, false);
        RowDataKeySelector keys = KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(),
                grouping, InternalTypeInfo.of(inputType));
        // Named as the other accelerated operators are (the web UI, ManagedMemoryTest).
        transformation.setName(spec.operatorName());
        transformation.setDescription(spec.operatorName() + ": window aggregate in the Python sidecar");
        transformation.setStateKeySelector(keys);
        transformation.setStateKeyType(keys.getProducedType());
        transformation.declareManagedMemoryUseCaseAtSlotScope(ManagedMemoryUseCase.PYTHON);
        return transformation;
    }
}
