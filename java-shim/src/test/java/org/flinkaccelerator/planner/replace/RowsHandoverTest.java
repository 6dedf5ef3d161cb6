package org.flinkaccelerator.planner.replace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.api.common.ExecutionConfig;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.apache.flink.streaming.api.graph.StreamConfig;
import org.apache.flink.streaming.api.graph.StreamGraphGenerator;
import org.apache.flink.streaming.api.graph.StreamingJobGraphGenerator;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.GraphRewriter;
import org.flinkaccelerator.planner.rules.RewriteRules;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * Which chained operators of an accelerated job hand their rows over uncopied: the raw Kafka
 * source before an accelerated operator, an accelerated operator that emits messages for its raw
 * sink (a segment's or an encode stage's) and the operator an encode stage alone reads; a rows
 * stage's rows (views of the sidecar's answer) and the other stock operators' rows keep Flink's
 * copy. Read from the job graph Flink's own generator makes of the translated plan.
 */
class RowsHandoverTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    /** Each chained operator's name (ids dropped) and the simple name of the serializer of its output. */
    private static Map<String, String> outputSerializers(String golden) throws Exception {
        SqlPlans plans = new SqlPlans();
        return outputSerializers(plans, plans.plan(Files.readString(GOLDEN.resolve(golden + ".sql"), StandardCharsets.UTF_8)));
    }

    private static Map<String, String> outputSerializers(SqlPlans plans, ExecNodeGraph graph) throws Exception {
        List<Transformation<?>> roots = plans.translate(new GraphRewriter(RewriteRules.all())
                .rewrite(graph, plans.config()));
        JobGraph job = StreamingJobGraphGenerator.createJobGraph(
                new StreamGraphGenerator(roots, new ExecutionConfig(), new CheckpointConfig()).generate());
        ClassLoader loader = RowsHandoverTest.class.getClassLoader();
        Map<String, String> serializers = new TreeMap<>();
        for (JobVertex vertex : job.getVertices()) {
            for (StreamConfig operator : new StreamConfig(vertex.getConfiguration())
                    .getTransitiveChainedTaskConfigsWithSelf(loader).values()) {
                Object out = operator.getTypeSerializerOut(loader);
                if (out != null && operator.getOperatorName().matches("Source: .*|Accelerated\\[.*|Calc.*|.*Window.*")) {
                    serializers.put(operator.getOperatorName().replaceAll("\\[\\d+]", ""), out.getClass().getSimpleName());
                }
            }
        }
        return serializers;
    }

    @Test
    void aSegmentsSourceAndOperatorHandTheirRowsOverUncopied() throws Exception {
        assertEquals(Map.of("Source: bid", "HandedOverRowSerializer",
                "Accelerated[bid-to-out_bid]", "HandedOverRowSerializer"), outputSerializers("nexmark_q2"));
    }

    @Test
    void aRowsStagesRowsAreCopiedAndTheOperatorBeforeAnEncodeStageHandsItsRowsOver() throws Exception {
        assertEquals(Map.of("Source: bid", "HandedOverRowSerializer",
                "Accelerated[bid-rows]", "RowDataSerializer",
                "LocalWindowAggregate", "RowDataSerializer",
                "GlobalWindowAggregate", "HandedOverRowSerializer",
                "Accelerated[per_window-encode]", "HandedOverRowSerializer"), outputSerializers("rows_watermark"));
    }

    /** An operator two encode stages read keeps Flink's copy: each of its consumers gets its own row. */
    @Test
    void anOperatorTwoSinksReadKeepsFlinksCopy() throws Exception {
        SqlPlans plans = new SqlPlans();
        String table = "'connector' = 'kafka', 'properties.bootstrap.servers' = '${bootstrap}', 'format' = 'json'";
        Map<String, String> serializers = outputSerializers(plans, plans.planTogether(String.join("\n",
                "CREATE TABLE bid (channel STRING, price BIGINT, `dateTime` TIMESTAMP(3),",
                "  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND) WITH (" + table + ", 'topic' = 'src',",
                "  'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset');",
                "CREATE TABLE a (channel STRING, window_start TIMESTAMP(3), bids BIGINT) WITH (" + table + ", 'topic' = 'a');",
                "CREATE TABLE b (channel STRING, window_start TIMESTAMP(3), bids BIGINT) WITH (" + table + ", 'topic' = 'b');",
                "CREATE TEMPORARY VIEW per_window AS SELECT channel, window_start, COUNT(*) AS bids FROM TABLE(TUMBLE(",
                "  TABLE bid, DESCRIPTOR(`dateTime`), INTERVAL '10' SECOND)) GROUP BY channel, window_start, window_end;",
                "INSERT INTO a SELECT * FROM per_window;",
                "INSERT INTO b SELECT * FROM per_window;")));
        assertEquals("RowDataSerializer", serializers.get("GlobalWindowAggregate"), serializers.toString());
        assertEquals("HandedOverRowSerializer", serializers.get("Accelerated[a-encode]"), serializers.toString());
    }
}
