package org.flinkaccelerator.runtime.over;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.over.OverAggExport;
import org.flinkaccelerator.planner.over.OverAggNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's OVER aggregate ({@code KeyedProcessOperator} running the
 * {@code RowTimeUnboundedPrecedingOverFunctionV2} the planner builds for the SQL) and ours, from
 * the descriptor the planner export writes for the same exec node, both in Flink's keyed operator
 * harness.
 */
final class OverAggHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";

    /**
     * COUNT(*), COUNT, SUM (Calcite's COUNT and $SUM0) over BIGINT, INT and DOUBLE, MIN and MAX of
     * a DOUBLE and AVG of a BIGINT over one window of {@code frame} ("ROWS", "RANGE") per (k1, k2).
     */
    static String query(String frame) {
        return "SELECT k1, k2, a, b, c, ts, COUNT(*) OVER w, COUNT(b) OVER w, SUM(a) OVER w, SUM(b) OVER w,"
                + " SUM(c) OVER w, MIN(c) OVER w, MAX(c) OVER w, MAX(b) OVER w, AVG(a) OVER w FROM bids"
                + " WINDOW w AS (PARTITION BY k1, k2 ORDER BY ts " + frame
                + " BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)";
    }

    /** Stock's operator for the SQL and the accelerated one's spec, from the same exec node. */
    record Planned(StockKeyedOperator stock, OverAggSpec spec) {
        AcceleratedOverAggOperator newAccelerated() {
            return new AcceleratedOverAggOperator(spec);
        }

        AcceleratedOverAggOperator newAccelerated(int batchSize) {
            return new AcceleratedOverAggOperator(new OverAggSpec(spec.descriptorJson(), spec.inputType(),
                    spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.sidecarTimeout(), spec.arrowLimit()));
        }
    }

    private OverAggHarnesses() {}

    /** Plans {@code INSERT INTO results <select>} into a print sink, with {@code options} set. */
    static Planned plan(String select, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        List<FoundNode<OverAggNode>> found = OverAggNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one OVER aggregate, found " + found.size());
        }
        OverAggExport export = OverAggExport.of("bids-over-agg", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the OVER aggregate stays stock: " + export.fallback());
        }
        RowType inputType = found.get(0).fields().inputType();
        return new Planned(StockKeyedOperator.translated(plans, graph,
                f -> f.getClass().getSimpleName().equals("RowTimeUnboundedPrecedingOverFunctionV2"), inputType),
                new OverAggSpec(export.toJson(), inputType, TestPython.path()));
    }

    /** The export's reasons for the OVER aggregate of {@code select} (empty when it runs accelerated). */
    static List<String> stockReasons(String select, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        FoundNode<OverAggNode> found = OverAggNode.find(graph).get(0);
        return OverAggExport.of("bids-over-agg", found.fields(), plans.config()).fallback().stream()
                .map(Object::toString).toList();
    }

    /** One input event: a row with its record timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    /**
     * A random insert-only stream over {@code inputType}: keys from a few values (NULL included),
     * values with NULLs, NaN, signed zeros and values near the integer limits, rowtimes out of
     * order and often equal within a key (where ROWS and RANGE differ), watermarks now and then
     * (some not advancing, some passing rows still to come: those arrive late), and at the end a
     * watermark that passes every row.
     */
    static List<Event> stream(RowType inputType, long seed, int rows) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<Event> out = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                row.setField(f, LogicalTypeChecks.isRowtimeAttribute(inputType.getTypeAt(f))
                        ? TimestampData.fromEpochMillis(10L * i + 100L * (random.nextInt(12) - 4))
                        : WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f), random));
            }
            out.add(new Event(binary.toBinaryRow(row).copy(), 10L * i, null));
            if (random.nextInt(25) == 0) {
                watermark = random.nextInt(4) == 0 && watermark != Long.MIN_VALUE ? watermark : 10L * i - 200;
                out.add(new Event(null, null, watermark));
            }
        }
        out.add(new Event(null, null, 10L * rows + 10_000));
        return out;
    }

    /** Feeds a fresh copy of the event's row, as a task deserializes each record anew. */
    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (event.row() == null) {
            harness.processWatermark(new Watermark(event.watermark()));
            return;
        }
        harness.processElement(new StreamRecord<>(((BinaryRowData) event.row()).copy(), event.timestamp()));
    }
}
