package org.flinkaccelerator.planner.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.GraphRewriter;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * An encode stage whose only feeder is an accelerated group aggregate is folded into it with
 * {@code accelerator.encode-stages.fused.enabled}: the job graph Flink's own generator makes of the
 * translated plan has no encode stage, and the aggregate hands its message rows to the raw sink
 * uncopied; without the option the encode stage stays; a key type the sidecar cannot read back from
 * Flink's key rows keeps it too.
 */
class FusedEncodeStagesTest {
    private static final String TABLE = "'connector' = 'kafka', 'properties.bootstrap.servers' = 'localhost:9092'";
    private static final String BID = "CREATE TABLE bid (auction BIGINT, price BIGINT, `dateTime` TIMESTAMP(3)) WITH ("
            + TABLE + ", 'topic' = 'bid', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');";

    private static final String ORDERS = "CREATE TABLE orders (`user` STRING, amount INT, cat STRING, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '2' SECOND) WITH (" + TABLE + ", 'topic' = 'orders',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');";
    private static final String UPSERT = TABLE.replace("'kafka'", "'upsert-kafka'")
            + ", 'key.format' = 'json', 'value.format' = 'json'";

    /** Per accelerated operator of the group aggregate's job: its name and its output serializer's simple name. */
    private static Map<String, String> operators(boolean fused, String keyType) throws Exception {
        return operators(fused, AcceleratorOptions.GROUP_AGGREGATE.key(), String.join("\n", BID,
                "CREATE TABLE per_day (k " + keyType + ", `day` VARCHAR, total_bids BIGINT, max_price BIGINT,",
                "  avg_price BIGINT, PRIMARY KEY (k, `day`) NOT ENFORCED) WITH (" + UPSERT + ", 'topic' = 'per_day');",
                "INSERT INTO per_day SELECT CAST(auction AS " + keyType + "), DATE_FORMAT(`dateTime`, 'yyyy-MM-dd'),",
                "  COUNT(*), MAX(price), AVG(price) FROM bid",
                "  GROUP BY CAST(auction AS " + keyType + "), DATE_FORMAT(`dateTime`, 'yyyy-MM-dd');"));
    }

    /** Per accelerated operator (chained ones included) of {@code script}: its name and its output serializer's simple name. */
    private static Map<String, String> operators(boolean fused, String family, String script) throws Exception {
        SqlPlans plans = new SqlPlans();
        plans.set(family, "true");
        plans.set(AcceleratorOptions.FUSED_ENCODE_STAGES.key(), String.valueOf(fused));
        List<Transformation<?>> roots = plans.translate(new GraphRewriter(RewriteRules.all())
                .rewrite(plans.plan(script), plans.config()));
        JobGraph job = StreamingJobGraphGenerator.createJobGraph(
                new StreamGraphGenerator(roots, new ExecutionConfig(), new CheckpointConfig()).generate());
        ClassLoader loader = FusedEncodeStagesTest.class.getClassLoader();
        Map<String, String> operators = new TreeMap<>();
        for (JobVertex vertex : job.getVertices()) {
            for (StreamConfig operator : new StreamConfig(vertex.getConfiguration())
                    .getTransitiveChainedTaskConfigsWithSelf(loader).values()) {
                Object out = operator.getTypeSerializerOut(loader);
                if (operator.getOperatorName().startsWith("Accelerated[")) {
                    operators.put(operator.getOperatorName(), out == null ? "" : out.getClass().getSimpleName());
                }
            }
        }
        return operators;
    }

    @Test
    void theEncodeStageIsFoldedIntoTheGroupAggregateWithTheOption() throws Exception {
        Map<String, String> operators = operators(true, "BIGINT");
        assertEquals("HandedOverRowSerializer", operators.get("Accelerated[bid-group-agg]"), operators.toString());
        assertFalse(operators.containsKey("Accelerated[per_day-encode]"), operators.toString());
    }

    @Test
    void theEncodeStageStaysWithoutTheOption() throws Exception {
        Map<String, String> operators = operators(false, "BIGINT");
        assertTrue(operators.containsKey("Accelerated[bid-group-agg]"), operators.toString());
        assertEquals("HandedOverRowSerializer", operators.get("Accelerated[per_day-encode]"), operators.toString());
    }

    /** A DOUBLE key has no key-row layout the sidecar reads back: the aggregate emits rows, the encode stage stays. */
    @Test
    void aKeyTheSidecarCannotReadBackKeepsTheEncodeStage() throws Exception {
        Map<String, String> operators = operators(true, "DOUBLE");
        assertTrue(operators.containsKey("Accelerated[bid-group-agg]"), operators.toString());
        assertTrue(operators.containsKey("Accelerated[per_day-encode]"), operators.toString());
    }

    /** A deduplication's and a Top-N's stage answer their whole output rows: both fold their encode stage in. */
    @Test
    void theEncodeStageIsFoldedIntoADeduplicationAndATopN() throws Exception {
        Map<String, String> dedup = operators(true, AcceleratorOptions.DEDUPLICATE.key(), String.join("\n", ORDERS,
                "CREATE TABLE results (`user` STRING, amount INT, PRIMARY KEY (`user`) NOT ENFORCED) WITH (" + UPSERT
                        + ", 'topic' = 'results');",
                "INSERT INTO results SELECT `user`, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY `user`",
                "  ORDER BY ts DESC) AS rn FROM orders) WHERE rn = 1;"));
        assertEquals("HandedOverRowSerializer", dedup.get("Accelerated[orders-dedup]"), dedup.toString());
        assertFalse(dedup.containsKey("Accelerated[results-encode]"), dedup.toString());
        Map<String, String> topN = operators(true, AcceleratorOptions.TOP_N.key(), String.join("\n", ORDERS,
                "CREATE TABLE top2 (cat STRING, rn BIGINT, `user` STRING, amount INT, PRIMARY KEY (cat, rn) NOT ENFORCED)",
                "  WITH (" + UPSERT + ", 'topic' = 'top2');",
                "INSERT INTO top2 SELECT cat, rn, `user`, amount FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY cat",
                "  ORDER BY amount DESC) AS rn FROM orders) WHERE rn <= 2;"));
        assertEquals("HandedOverRowSerializer", topN.get("Accelerated[orders-top-n]"), topN.toString());
        assertFalse(topN.containsKey("Accelerated[top2-encode]"), topN.toString());
    }
}
