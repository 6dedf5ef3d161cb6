package org.flinkaccelerator.runtime.rank;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.rank.AppendOnlyTopNFunction;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.rank.RankExport;
import org.flinkaccelerator.planner.rank.RankNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's Top-N ({@code KeyedProcessOperator} running the {@code AppendOnlyTopNFunction}
 * the planner picks for the SQL) and ours, from the descriptor the planner export writes for the
 * same exec node, both in Flink's keyed operator harness.
 */
final class RankHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, c DOUBLE, d DECIMAL(10, 2),"
            + " s STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
            + " 'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";

    /** {@code ROW_NUMBER() ... <= n} over {@code order} ("a DESC", ...), the row number selected or not. */
    static String query(String order, int n, boolean rowNumber) {
        return "SELECT k1, k2, a, c, d, s, ts" + (rowNumber ? ", rn" : "") + " FROM (SELECT *, ROW_NUMBER() OVER"
                + " (PARTITION BY k1, k2 ORDER BY " + order + ") AS rn FROM bids) WHERE rn <= " + n;
    }

    /** Stock's operator for the SQL and the accelerated one's spec, from the same exec node. */
    record Planned(StockKeyedOperator stock, RankSpec spec) {
        AcceleratedRankOperator newAccelerated() {
            return new AcceleratedRankOperator(spec);
        }

        AcceleratedRankOperator newAccelerated(int batchSize) {
            return newAccelerated(batchSize, spec.batchBytes());
        }

        /** With {@code accelerator.batch.max-bytes} at {@code batchBytes}: the size of a snapshot piece and a restore call. */
        AcceleratedRankOperator newAccelerated(int batchSize, long batchBytes) {
            return new AcceleratedRankOperator(new RankSpec(spec.descriptorJson(), spec.inputType(),
                    spec.pythonExecutable(), batchSize, batchBytes, spec.maxDelay(), spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }
    }

    private RankHarnesses() {}

    /** The stock reasons the export gives the one Top-N of the SQL planned with {@code options} (none: accelerated). */
    static List<String> stockReasons(String select, List<String> primaryKey, String... options) {
        SqlPlans plans = plans(options);
        FoundNode<RankNode> found = only(StockKeyedOperator.plan(plans, select, primaryKey));
        return RankExport.of("bids-top-n", found.fields(), plans.config()).fallback().stream()
                .map(Object::toString).toList();
    }

    private static SqlPlans plans(String... options) {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        return plans;
    }

    private static FoundNode<RankNode> only(ExecNodeGraph graph) {
        List<FoundNode<RankNode>> found = RankNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one Top-N, found " + found.size());
        }
        return found.get(0);
    }

    /** Plans the SQL with {@code options} set, into a print sink or upsert-kafka keyed by {@code primaryKey}. */
    static Planned plan(String select, List<String> primaryKey, String... options) throws Exception {
        SqlPlans plans = plans(options);
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, primaryKey);
        FoundNode<RankNode> found = only(graph);
        RankExport export = RankExport.of("bids-top-n", found.fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the Top-N stays stock: " + export.fallback());
        }
        RowType inputType = found.fields().inputType();
        return new Planned(StockKeyedOperator.translated(plans, graph, f -> f instanceof AppendOnlyTopNFunction,
                inputType), new RankSpec(export.toJson(), inputType, TestPython.path()));
    }

    /** One input event: a row with or without a timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    private static final String[] SORT_STRINGS = {"a", "b", "\u00fcn\u00efcode", "", "B"};

    /**
     * A random insert-only stream over {@code inputType} drawn from a pool of {@code distinct}
     * rows: keys from a few values, NULL included; the sort fields a, s and ts from a few values
     * each, NULL included, so sort keys tie between different rows; the other values with NULLs,
     * NaN and signed zeros; most rows with a record timestamp, and a watermark now and then.
     */
    static List<Event> stream(RowType inputType, long seed, int rows, int distinct) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<RowData> pool = new ArrayList<>();
        for (int p = 0; p < distinct; p++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                String name = inputType.getFieldNames().get(f);
                boolean nullValue = random.nextInt(8) == 0;
                Object value;
                if (name.equals("a")) {
                    value = nullValue ? null : (long) (random.nextInt(7) - 3);
                } else if (name.equals("s")) {
                    value = nullValue ? null : StringData.fromString(SORT_STRINGS[random.nextInt(SORT_STRINGS.length)]);
                } else if (inputType.getTypeAt(f).getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
                    value = nullValue ? null : TimestampData.fromEpochMillis(1_000L * random.nextInt(6));
                } else {
                    value = WindowAggHarnesses.value(inputType.getTypeAt(f), name, random);
                }
                row.setField(f, value);
            }
            pool.add(binary.toBinaryRow(row).copy());
        }
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            RowData row = pool.get(random.nextInt(pool.size()));
            out.add(new Event(row, random.nextInt(10) == 0 ? null : 1_000L + i, null));
            if (random.nextInt(40) == 0) {
                out.add(new Event(null, null, 1_000L + i));
            }
        }
        return out;
    }

    /** Feeds a fresh copy of the event's row, as a task deserializes each record anew. */
    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (event.row() == null) {
            harness.processWatermark(new Watermark(event.watermark()));
            return;
        }
        RowData row = ((BinaryRowData) event.row()).copy();
        harness.processElement(event.timestamp() == null ? new StreamRecord<>(row)
                : new StreamRecord<>(row, event.timestamp()));
    }
}
