package org.flinkaccelerator.planner.replace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.graph.StreamGraphGenerator;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;
import org.flinkaccelerator.planner.GraphRewriter;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * The accelerated operators take their Arrow memory from the slot's managed memory for Python
 * processes, as PyFlink's operators do: their transformations declare that use case at slot scope,
 * and Flink splits a slot's managed memory between it and a window aggregate's by the consumer weights.
 */
class ManagedMemoryTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    private static List<Transformation<?>> accelerated(String golden, SqlPlans plans) throws Exception {
        String sql = Files.readString(GOLDEN.resolve(golden + ".sql"), StandardCharsets.UTF_8);
        return plans.translate(new GraphRewriter(RewriteRules.all()).rewrite(plans.plan(sql), plans.config()));
    }

    private static List<Transformation<?>> all(List<Transformation<?>> roots) {
        Deque<Transformation<?>> pending = new ArrayDeque<>(roots);
        List<Transformation<?>> all = new java.util.ArrayList<>();
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            all.add(t);
            pending.addAll(t.getInputs());
        }
        return all;
    }

    @Test
    void rowsAndEncodeStagesDeclareManagedMemoryForPythonAtSlotScopeAndNoOperatorMemory() throws Exception {
        for (String golden : List.of("rows_watermark", "encode_window_aggregate", "nexmark_q2")) {
            int stages = 0;
            for (Transformation<?> t : all(accelerated(golden, new SqlPlans()))) {
                if (t.getName().startsWith("Accelerated[")) {
                    stages++;
                    assertEquals(Set.of(ManagedMemoryUseCase.PYTHON), t.getManagedMemorySlotScopeUseCases(), golden);
                    assertEquals(Map.of(), t.getManagedMemoryOperatorScopeUseCaseWeights(), golden);
                } else {
                    assertFalse(t.getManagedMemorySlotScopeUseCases().contains(ManagedMemoryUseCase.PYTHON),
                            golden + ": " + t.getName());
                }
            }
            assertTrue(stages > 0, golden);
        }
    }

    /**
     * A rows stage feeding a window aggregate that feeds an encode stage, all in one slot: each
     * accelerated operator is given the whole PYTHON share (30 of the default weights' 100, so
     * they must share one reservation), the window aggregate's operators split the other 70.
     */
    @Test
    void aWindowAggregateInTheSlotKeepsSeventyOfTheHundredDefaultWeights() throws Exception {
        List<Transformation<?>> roots = accelerated("rows_watermark", new SqlPlans());
        JobGraph job = StreamingJobGraphGenerator.createJobGraph(
                new StreamGraphGenerator(roots, new ExecutionConfig(), new CheckpointConfig()).generate());
        ClassLoader loader = getClass().getClassLoader();
        Map<String, Double> slotFractions = new TreeMap<>();
        for (JobVertex vertex : job.getVertices()) {
            for (StreamConfig operator : new StreamConfig(vertex.getConfiguration())
                    .getTransitiveChainedTaskConfigsWithSelf(loader).values()) {
                for (ManagedMemoryUseCase useCase : List.of(ManagedMemoryUseCase.PYTHON, ManagedMemoryUseCase.OPERATOR)) {
                    double fraction = operator.getManagedMemoryFractionOperatorUseCaseOfSlot(useCase,
                            new Configuration(), new Configuration(), loader);
                    if (fraction > 0) {
                        slotFractions.put(useCase + " " + operator.getOperatorName(), fraction);
                    }
                }
            }
        }
        assertEquals(List.of("OPERATOR GlobalWindowAggregate", "OPERATOR LocalWindowAggregate",
                "PYTHON Accelerated[bid-rows]", "PYTHON Accelerated[per_window-encode]"),
                slotFractions.keySet().stream().map(k -> k.replaceAll("\\[\\d+]$", "")).toList());
        double operatorShare = 0;
        for (Map.Entry<String, Double> entry : slotFractions.entrySet()) {
            if (entry.getKey().startsWith("PYTHON")) {
                assertEquals(0.3, entry.getValue(), 1e-9, entry.getKey());
            } else {
                operatorShare += entry.getValue();
            }
        }
        assertEquals(0.7, operatorShare, 1e-9, slotFractions.toString());
    }
}
