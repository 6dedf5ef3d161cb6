package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.runtime.operators.aggregate.window.LocalSlicingWindowAggOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.Collector;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.AccelerateKafkaSources;
import org.flinkaccelerator.planner.rules.ExportKafkaSegments;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.AcceleratedOperator;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.flinkaccelerator.sidecar.TestPython;
import org.junit.jupiter.api.Test;

/**
 * A rows stage with the local window aggregate folded in, in Flink's operator harness with a real
 * sidecar, against stock Flink's own {@code LocalSlicingWindowAggOperator} as the planner builds it
 * for the same query, fed the rows Flink's json format decodes from the same messages: in one
 * batch, the partial rows (Flink's binary row bytes, order, no record timestamp) are stock's flush;
 * in many batches, they merge into stock's partials.
 */
class LocalPhaseRowsStageTest {
    private static final Duration LONG = Duration.ofMinutes(10);
    private static final String SQL = """
            CREATE TABLE bids (auction BIGINT, bidder STRING, price INT, ts TIMESTAMP(3),
              WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka',
              'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE out_t (auction BIGINT, bidder STRING, ws TIMESTAMP(3), n BIGINT, c BIGINT, s INT, hi INT,
              lo INT) WITH ('connector' = 'blackhole');
            INSERT INTO out_t SELECT auction, bidder, window_start, COUNT(*), COUNT(price), SUM(price), MAX(price),
              MIN(price) FROM TABLE(HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
              GROUP BY auction, bidder, window_start, window_end;
            """;

    /** The stock local operator and the folded stage's descriptor and rows, planned from {@link #SQL}. */
    private record Planned(OneInputStreamOperator<RowData, RowData> stock, RowType localInput, RowType localOutput,
            String descriptor) {}

    @SuppressWarnings("unchecked")
    private static Planned plan() throws Exception {
        SqlPlans plans = new SqlPlans().set("accelerator.window-aggregate.local-phase.enabled", "true");
        ExecNodeGraph graph = plans.plan(SQL);
        OneInputStreamOperator<RowData, RowData> stock = null;
        RowType input = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof OneInputTransformation<?, ?> one && one.getOperatorFactory() instanceof SimpleOperatorFactory<?> f
                    && f.getOperator() instanceof LocalSlicingWindowAggOperator) {
                stock = (OneInputStreamOperator<RowData, RowData>) f.getOperator();
                input = ((InternalTypeInfo<RowData>) one.getInputType()).toRowType();
            }
            pending.addAll(t.getInputs());
        }
        assertNotNull(stock, "the stock plan has a local window aggregate");
        ExecNodeGraph rewritten = new AccelerateKafkaSources().apply(
                new ExportKafkaSegments().apply(graph, plans.config(), new AccelerationReport()), plans.config(),
                new AccelerationReport());
        ExecNode<?> exchange = find(rewritten, StreamExecExchange.class);
        AcceleratedExecNode stage = assertInstanceOf(AcceleratedExecNode.class,
                exchange.getInputEdges().get(0).getSource());
        // The harness feeds message bytes without Kafka splits: the same stage, its watermarks left out.
        ObjectNode descriptor = (ObjectNode) new ObjectMapper().readTree(stage.spec().descriptorJson());
        descriptor.remove("watermark");
        return new Planned(stock, input, stage.spec().rows(), descriptor.toString());
    }

    private static ExecNode<?> find(ExecNodeGraph graph, Class<?> kind) {
        Deque<ExecNode<?>> pending = new ArrayDeque<>(graph.getRootNodes());
        while (!pending.isEmpty()) {
            ExecNode<?> node = pending.pop();
            if (kind.isInstance(node)) {
                return node;
            }
            node.getInputEdges().forEach(e -> pending.push(e.getSource()));
        }
        throw new AssertionError("no " + kind.getSimpleName());
    }

    /** Bids out of order over 30 s, NULL keys and prices, INT sums past 2^31. */
    private static List<String> messages(long seed) {
        Random random = new Random(seed);
        String[] bidders = {"\"alice\"", "\"zo\u00eb\"", "\"\"", "null"};
        String[] prices = {"null", "1", "-7", "2147483647", "100"};
        List<String> out = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            long millis = 1_767_225_600_000L + i * 75L - random.nextInt(900);
            String time = java.time.LocalDateTime.ofEpochSecond(Math.floorDiv(millis, 1000), (int) Math.floorMod(millis,
                    1000) * 1_000_000, java.time.ZoneOffset.UTC).toString().replace('T', ' ');
            out.add("{\"auction\": " + (random.nextInt(6) == 0 ? "null" : random.nextInt(4)) + ", \"bidder\": "
                    + bidders[random.nextInt(bidders.length)] + ", \"price\": " + prices[random.nextInt(prices.length)]
                    + ", \"ts\": \"" + time + "\"}");
        }
        return out;
    }

    private static List<String> stockOutput(Planned planned, List<String> messages) throws Exception {
        JsonParserRowDataDeserializationSchema json = new JsonParserRowDataDeserializationSchema(planned.localInput(),
                InternalTypeInfo.of(planned.localInput()), false, false, TimestampFormat.SQL);
        json.open(null);
        OneInputStreamOperator<RowData, RowData> stock = InstantiationUtil.clone(planned.stock(),
                LocalPhaseRowsStageTest.class.getClassLoader());
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = new OneInputStreamOperatorTestHarness<>(stock)) {
            harness.setup(new RowDataSerializer(planned.localOutput()));
            harness.open();
            for (int i = 0; i < messages.size(); i++) {
                List<RowData> rows = new ArrayList<>();
                json.deserialize(messages.get(i).getBytes(StandardCharsets.UTF_8), new Collector<>() {
                    @Override
                    public void collect(RowData row) {
                        rows.add(row);
                    }

                    @Override
                    public void close() {}
                });
                for (RowData row : rows) {
                    harness.processElement(new StreamRecord<>(row, 1000L * i));
                }
            }
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            return WindowAggHarnesses.output(harness, planned.localOutput());
        }
    }

    private static List<String> stageOutput(Planned planned, List<String> messages, int batchSize) throws Exception {
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec("bids-rows", planned.descriptor(), TestPython.path(),
                batchSize, Long.MAX_VALUE, LONG, LONG, LONG, RecordCoordinates.Layout.NONE, planned.localOutput(), null,
                null, null);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec))) {
            harness.setup(new RowDataSerializer(planned.localOutput()));
            harness.open();
            for (int i = 0; i < messages.size(); i++) {
                harness.processElement(new StreamRecord<>(GenericRowData.of((Object) messages.get(i)
                        .getBytes(StandardCharsets.UTF_8)), 1000L * i));
            }
            harness.endInput();
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            return WindowAggHarnesses.output(harness, planned.localOutput());
        }
    }

    @Test
    void oneBatchAnswersExactlyStocksFlush() throws Exception {
        Planned planned = plan();
        List<String> messages = messages(7);
        List<String> stock = stockOutput(planned, messages);
        assertTrue(stock.size() > 100, "many (key, slice) pairs: " + stock.size());
        assertTrue(stock.stream().noneMatch(l -> l.contains(" @")), "stock's local phase emits no timestamps");
        assertEquals(stock, stageOutput(planned, messages, 10_000));
    }

    @Test
    void manyBatchesMergeIntoStocksPartials() throws Exception {
        Planned planned = plan();
        List<String> messages = messages(11);
        RowType out = planned.localOutput();
        List<String> stock = stockOutput(planned, messages);
        List<String> stage = stageOutput(planned, messages, 17);
        assertTrue(stage.size() > stock.size(), "smaller batches split pairs into more partials");
        assertEquals(merged(stock, out), merged(stage, out));
    }

    /**
     * Each (auction, bidder, slice end)'s partials merged as the global phase merges them: counts
     * added, the INT sum wrapping, MAX and MIN, NULL where no operand; pairs in first-occurrence order.
     */
    private static Map<List<String>, List<String>> merged(List<String> lines, RowType out) {
        assertEquals(List.of("auction", "bidder", "count1$0", "count$1", "sum$2", "max$3", "min$4", "$slice_end"),
                out.getFieldNames());
        Map<List<String>, long[]> sums = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("watermark")) {
                continue;
            }
            assertTrue(line.startsWith("+I ("), line);
            String[] f = line.substring(4, line.lastIndexOf(") ")).split(", ", -1);
            List<String> pair = List.of(f[0], f[1], f[7]);
            long[] acc = sums.computeIfAbsent(pair, p -> new long[] {0, 0, 0, Long.MIN_VALUE, Long.MAX_VALUE, 0});
            acc[0] += Long.parseLong(f[2]);
            acc[1] += Long.parseLong(f[3]);
            if (!f[4].equals("null")) {
                acc[2] = (int) (acc[2] + Integer.parseInt(f[4]));
                acc[3] = Math.max(acc[3], Integer.parseInt(f[5]));
                acc[4] = Math.min(acc[4], Integer.parseInt(f[6]));
                acc[5] = 1;
            }
        }
        Map<List<String>, List<String>> out2 = new LinkedHashMap<>();
        sums.forEach((pair, acc) -> out2.put(pair, acc[5] == 0 ? List.of(acc[0] + "", acc[1] + "", "null")
                : List.of(acc[0] + "", acc[1] + "", acc[2] + "", acc[3] + "", acc[4] + "")));
        return out2;
    }
}
