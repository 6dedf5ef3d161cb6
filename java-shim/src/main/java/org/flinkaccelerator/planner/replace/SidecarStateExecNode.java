package org.flinkaccelerator.planner.replace;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
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
import org.apache.flink.table.planner.plan.nodes.exec.utils.TransformationMetadata;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.handover.HandedOverRowTypeInfo;
import org.flinkaccelerator.runtime.state.SidecarStateSpec;

/**
 * The ExecNode of a keyed operator whose state lives in the Python sidecar: it takes the stock
 * node's input edges and output row and translates with the stock node's shape, one
 * {@link OneInputTransformation} (one input) or {@link TwoInputTransformation} (a join) running the
 * operator at its first input's parallelism, each input keyed by the key selector stock builds for
 * the same key fields (the one the keyed exchange before it uses), with a
 * managed-memory weight for the sidecar's state and the PYTHON use case at slot scope for its
 * Arrow buffers. Its uid (when {@code table.exec.uid.generation} gives one) ends in the
 * node's own uid name, never stock's, so uid-matched savepoints do not cross.
 *
 * @param <S> the operator's spec
 */
public abstract class SidecarStateExecNode<S extends SidecarStateSpec> extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private final S spec;
    private final List<int[]> keys;
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
        this(context, uidName, memoryWeight, computes, config, spec, List.of(grouping), outputType);
    }

    /** As above, with {@code keys} the key fields of each input (one or two), as the stock node's. */
    protected SidecarStateExecNode(String context, String uidName, long memoryWeight, String computes,
            ReadableConfig config, S spec, List<int[]> keys, RowType outputType) {
        this(ExecNodeContext.newNodeId(), context, uidName, memoryWeight, computes, config, spec, keys, outputType);
    }

    private SidecarStateExecNode(int id, String context, String uidName, long memoryWeight, String computes,
            ReadableConfig config, S spec, List<int[]> keys, RowType outputType) {
        super(id, new ExecNodeContext(context).withId(id), config,
                keys.stream().map(k -> InputProperty.DEFAULT).toList(), outputType, spec.operatorName());
        if (keys.size() != 1 && keys.size() != 2) {
            throw new IllegalArgumentException(spec.operatorName() + ": one or two inputs, not " + keys.size());
        }
        this.spec = spec;
        this.keys = keys.stream().map(int[]::clone).toList();
        this.uidName = uidName;
        this.memoryWeight = memoryWeight;
        this.computes = computes;
    }

    public S spec() {
        return spec;
    }

    /** The key fields of each input, as the stock node's. */
    public List<int[]> keys() {
        return keys.stream().map(int[]::clone).toList();
    }

    /** The operator: a {@link OneInputStreamOperator}, or a {@link TwoInputStreamOperator} for two inputs. */
    protected abstract StreamOperator<RowData> createOperator();

    /** The rows of each input the spec was made for (the one-input specs' {@code inputType}). */
    protected List<RowType> specInputTypes() {
        return List.of(spec.inputType());
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        List<Transformation<RowData>> inputs = new ArrayList<>();
        List<RowDataKeySelector> selectors = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            ExecEdge edge = getInputEdges().get(i);
            RowType inputType = (RowType) edge.getOutputType();
            if (!inputType.equals(specInputTypes().get(i))) {
                throw new IllegalStateException(spec.operatorName() + ": the node's input " + i + " " + inputType
                        + " is not the spec's " + specInputTypes().get(i));
            }
            inputs.add((Transformation<RowData>) edge.translateToPlan(planner));
            selectors.add(KeySelectorUtil.getRowDataSelector(planner.getFlinkContext().getClassLoader(),
                    keys.get(i), InternalTypeInfo.of(inputType)));
        }
        TransformationMetadata meta = createTransformationMeta(uidName, config);
        // A row per message is new and never touched again: the sink's raw twin takes it uncopied.
        TypeInformation<RowData> output = spec.encodesMessages() ? HandedOverRowTypeInfo.of((RowType) getOutputType())
                : InternalTypeInfo.of((RowType) getOutputType());
        int parallelism = inputs.get(0).getParallelism();
        Transformation<RowData> transformation;
        if (inputs.size() == 1) {
            OneInputTransformation<RowData, RowData> one = ExecNodeUtil.createOneInputTransformation(inputs.get(0),
                    meta, SimpleOperatorFactory.of(createOperator()), output, parallelism, memoryWeight, false);
            one.setStateKeySelector(selectors.get(0));
            one.setStateKeyType(selectors.get(0).getProducedType());
            transformation = one;
        } else {
            TwoInputTransformation<RowData, RowData, RowData> two = ExecNodeUtil.createTwoInputTransformation(
                    inputs.get(0), inputs.get(1), meta, SimpleOperatorFactory.of(createOperator()), output,
                    parallelism, memoryWeight, false);
            two.setStateKeySelectors(selectors.get(0), selectors.get(1));
            two.setStateKeyType(selectors.get(0).getProducedType());
            transformation = two;
        }
        // Named as the other accelerated operators are (the web UI, ManagedMemoryTest).
        transformation.setName(spec.operatorName());
        transformation.setDescription(spec.operatorName() + ": " + computes + " in the Python sidecar");
        transformation.declareManagedMemoryUseCaseAtSlotScope(ManagedMemoryUseCase.PYTHON);
        return transformation;
    }
}
