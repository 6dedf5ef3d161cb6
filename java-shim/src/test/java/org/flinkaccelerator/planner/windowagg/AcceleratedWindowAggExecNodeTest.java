package org.flinkaccelerator.planner.windowagg;

import static org.flinkaccelerator.planner.windowagg.WindowAggPlans.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Random;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.window.tvf.common.WindowAggOperator;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.runtime.windowagg.AcceleratedWindowAggOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggSpec;
import org.junit.jupiter.api.Test;

/**
 * The accelerated window aggregate's ExecNode, put in place of a planned stock node, translates
 * with the stock node's shape: same parallelism, same managed-memory weight, a state key
 * selector that gives the stock selector's keys, and its own uid suffix.
 */
class AcceleratedWindowAggExecNodeTest {

    @SuppressWarnings("unchecked")
    private static OneInputTransformation<RowData, RowData> stockWindowAgg(Transformation<?> root) {
        Deque<Transformation<?>> pending = new ArrayDeque<>();
        pending.add(root);
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof OneInputTransformation<?, ?> one && one.getOperatorFactory() instanceof SimpleOperatorFactory<?> f
                    && f.getOperator() instanceof WindowAggOperator<?, ?>) {
                return (OneInputTransformation<RowData, RowData>) one;
            }
            pending.addAll(t.getInputs());
        }
        throw new AssertionError("no stock WindowAggOperator in the plan");
    }

    @Test
    @SuppressWarnings("unchecked")
    void translatesWithTheStockNodesShapeAndKeys() throws Exception {
        WindowAggPlans plans = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE")
                .set("table.exec.uid.generation", "ALWAYS");
        ExecNodeGraph graph = plans.plan(query("auction, bidder, window_start, window_end, COUNT(*), SUM(price)",
                WindowAggExportTest.TUMBLE_10S, "auction, bidder, window_start, window_end"));
        FoundNode<WindowAggNode> found = WindowAggNode.find(graph).get(0);
        WindowAggExport export = WindowAggExport.of("bids-window-agg", found.fields(), plans.plans().config());
        int timeIndex = ((TimeAttributeWindowingStrategy) found.fields().windowing()).getTimeAttributeIndex();
        RowType inputType = found.fields().inputType();
        WindowAggSpec spec = new WindowAggSpec(export.toJson(), inputType, timeIndex, "python3");

        OneInputTransformation<RowData, RowData> stock = stockWindowAgg(plans.plans().translate(graph).get(0));
        AcceleratedWindowAggExecNode node = new AcceleratedWindowAggExecNode(plans.plans().config(), spec,
                found.fields().grouping(), found.fields().outputType());
        node.setInputEdges(found.node().getInputEdges());
        PlannerBase planner = (PlannerBase) ((org.apache.flink.table.api.internal.TableEnvironmentImpl)
                plans.plans().env()).getPlanner();
        OneInputTransformation<RowData, RowData> ours = (OneInputTransformation<RowData, RowData>)
                node.translateToPlan(planner);

        assertInstanceOf(AcceleratedWindowAggOperator.class,
                ((SimpleOperatorFactory<?>) ours.getOperatorFactory()).getOperator());
        assertEquals("Accelerated[bids-window-agg]", ours.getName());
        assertEquals(stock.getParallelism(), ours.getParallelism());
        assertEquals(stock.getOutputType(), ours.getOutputType());
        assertEquals(stock.getManagedMemoryOperatorScopeUseCaseWeights(),
                ours.getManagedMemoryOperatorScopeUseCaseWeights());
        assertTrue(ours.getManagedMemorySlotScopeUseCases().contains(ManagedMemoryUseCase.PYTHON));
        assertEquals(stock.getStateKeyType(), ours.getStateKeyType());
        assertTrue(stock.getUid().endsWith("_window-aggregate"), stock.getUid());
        assertTrue(ours.getUid().endsWith("_accelerated-window-aggregate"), ours.getUid());

        KeySelector<RowData, RowData> stockKeys = (KeySelector<RowData, RowData>) stock.getStateKeySelector();
        KeySelector<RowData, RowData> ourKeys = (KeySelector<RowData, RowData>) ours.getStateKeySelector();
        Random random = new Random(7);
        for (int i = 0; i < 200; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                LogicalTypeRoot root = inputType.getTypeAt(f).getTypeRoot();
                row.setField(f, random.nextInt(5) == 0 ? null : switch (root) {
                    case BIGINT -> (long) random.nextInt(50);
                    case INTEGER -> random.nextInt(50);
                    case SMALLINT -> (short) random.nextInt(50);
                    case DOUBLE -> random.nextDouble();
                    case VARCHAR -> StringData.fromString("s" + random.nextInt(9));
                    case DECIMAL -> null;
                    default -> TimestampData.fromEpochMillis(random.nextInt());
                });
            }
            assertEquals(stockKeys.getKey(row), ourKeys.getKey(row));
        }
    }
}
