package org.flinkaccelerator.planner.replace;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
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
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.AcceleratedOperator;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.exchange.BatchRecords;
import org.flinkaccelerator.runtime.exchange.ExchangeTarget;
import org.flinkaccelerator.runtime.handover.HandedOverRowTypeInfo;

/**
 * The ExecNode that stands for a whole accelerated segment between its raw-value Kafka source and
 * sink, for a rows stage between its raw-value source and the stock operators it feeds, or for
 * an encode stage between the stock operator that feeds it and its raw-value sink. It carries everything it needs (the spec) because Flink translates the graph with a fresh
 * planner; it translates to one {@link OneInputTransformation} running {@link AcceleratedOperator}
 * with its input's parallelism, chaining strategy ALWAYS (2.x's default; 1.20's operators default to
 * HEAD), so it chains with the source, the stock operator that feeds an encode stage and the sink: a
 * string a stock function made reaches the encoder as the Java string Flink's json serializer would
 * write (a lone surrogate included), not as the UTF-8 a network hop leaves of it. The transformation
 * declares the managed-memory use case of Python processes at slot scope, as PyFlink's operators
 * do: the operator's Arrow buffers come out of that share of the slot's managed memory
 * (docs/architecture.md, "Memory").
 */
public final class AcceleratedExecNode extends ExecNodeBase<RowData>
        implements StreamExecNode<RowData>, SingleTransformationTranslator<RowData> {
    private static final String CONTEXT = "accelerated-segment_1";

    private final AcceleratedSegmentSpec spec;
    private final boolean soleConsumer;

    public AcceleratedExecNode(ReadableConfig config, AcceleratedSegmentSpec spec) {
        this(config, spec, false);
    }

    /**
     * @param soleConsumer for an encode stage: it is the only consumer of the node before it, so
     *     that node's rows reach it uncopied ({@link RowsHandover#encodeInput})
     */
    public AcceleratedExecNode(ReadableConfig config, AcceleratedSegmentSpec spec, boolean soleConsumer) {
        this(ExecNodeContext.newNodeId(), config, spec, soleConsumer);
    }

    private AcceleratedExecNode(int id, ReadableConfig config, AcceleratedSegmentSpec spec, boolean soleConsumer) {
        super(id, new ExecNodeContext(CONTEXT).withId(id), config, List.of(InputProperty.DEFAULT),
                spec.emitsRows() ? spec.rows() : spec.writtenRow(), spec.operatorName());
        this.spec = spec;
        this.soleConsumer = soleConsumer;
    }

    public AcceleratedSegmentSpec spec() {
        return spec;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected Transformation<RowData> translateToPlanInternal(PlannerBase planner, ExecNodeConfig config) {
        ExecEdge inputEdge = getInputEdges().get(0);
        Transformation<RowData> input = (Transformation<RowData>) inputEdge.translateToPlan(planner);
        if (spec.watermarks() != null) {
            SplitAnnouncements.announce(input, spec.coordinates(), ((RowType) inputEdge.getOutputType()).getFieldCount());
        }
        if (!spec.consumesRows()) {
            RowsHandover.rawSource(input, (RowType) inputEdge.getOutputType());
        } else if (soleConsumer) {
            RowsHandover.encodeInput(input, (RowType) inputEdge.getOutputType());
        }
        // The rows of a rows stage are views of the sidecar's answer: Flink copies them for the
        // operators after it. A message row is new for every message, so the sink gets it as it is.
        RowType outputType = (RowType) getOutputType();
        SimpleOperatorFactory<RowData> operator = SimpleOperatorFactory.of(new AcceleratedOperator(spec));
        operator.setChainingStrategy(ChainingStrategy.ALWAYS);
        OneInputTransformation<RowData, RowData> transformation = new OneInputTransformation<>(input,
                spec.operatorName(), operator,
                ExchangeTarget.feedsExchange(spec.descriptorJson()) ? InternalTypeInfo.of(BatchRecords.TYPE)
                        : spec.emitsRows() ? InternalTypeInfo.of(outputType) : HandedOverRowTypeInfo.of(outputType),
                input.getParallelism(), false);
        transformation.setDescription(spec.operatorName() + (spec.emitsRows()
                ? ": Kafka messages decoded by the Python sidecar, as rows for the stock operators after it"
                : spec.consumesRows() ? ": rows of the stock operators before it, encoded by the Python sidecar"
                        + " as Kafka messages" : ": Kafka message values through the Python sidecar"));
        transformation.declareManagedMemoryUseCaseAtSlotScope(ManagedMemoryUseCase.PYTHON);
        return transformation;
    }
}
