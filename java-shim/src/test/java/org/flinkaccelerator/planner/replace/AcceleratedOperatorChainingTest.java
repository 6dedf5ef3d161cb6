package org.flinkaccelerator.planner.replace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.dag.Transformation;
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
 * The accelerated operators chain with the operators around them on every Flink line (1.20's
 * operators default to HEAD, 2.x's to ALWAYS): an encode stage must share its task with the stock
 * operator that feeds it, or the strings that operator's functions made reach it through Flink's
 * serializer, which stores a lone UTF-16 surrogate as '?' where Flink's json sink, chained in the
 * stock job, writes the surrogate itself as an escape.
 */
class AcceleratedOperatorChainingTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    /** Each task of the job graph as its chained operators' names, from its head. */
    private static List<List<String>> tasks(String golden) throws Exception {
        SqlPlans plans = new SqlPlans();
        String sql = Files.readString(GOLDEN.resolve(golden + ".sql"), StandardCharsets.UTF_8);
        List<Transformation<?>> roots =
                plans.translate(new GraphRewriter(RewriteRules.all()).rewrite(plans.plan(sql), plans.config()));
        JobGraph job = StreamingJobGraphGenerator.createJobGraph(
                new StreamGraphGenerator(roots, new ExecutionConfig(), new CheckpointConfig()).generate());
        ClassLoader loader = AcceleratedOperatorChainingTest.class.getClassLoader();
        List<List<String>> tasks = new ArrayList<>();
        for (JobVertex vertex : job.getVerticesSortedTopologicallyFromSources()) {
            List<String> names = new ArrayList<>();
            for (StreamConfig operator : new StreamConfig(vertex.getConfiguration())
                    .getTransitiveChainedTaskConfigsWithSelf(loader).values()) {
                String name = operator.getOperatorName();
                names.add(name.startsWith("Accelerated[") ? name.replaceAll("\\[\\d+]$", "") : name.replaceAll("\\[.*", ""));
            }
            tasks.add(names);
        }
        return tasks;
    }

    @Test
    void aRowsStageTheStockCalcAndAnEncodeStageRunInTheKafkaSourcesTask() throws Exception {
        List<List<String>> tasks = tasks("rows_regexp");
        assertEquals(1, tasks.size(), "one task from the Kafka source to the sink: " + tasks);
        assertTrue(tasks.get(0).containsAll(List.of("Accelerated[bid-rows]", "Calc", "Accelerated[out_bid-encode]")),
                tasks.toString());
    }
}
