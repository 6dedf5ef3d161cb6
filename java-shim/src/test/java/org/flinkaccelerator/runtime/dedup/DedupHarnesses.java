package org.flinkaccelerator.runtime.dedup;

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
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.dedup.DedupExport;
import org.flinkaccelerator.planner.dedup.DedupNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's deduplication ({@code KeyedProcessOperator} running the deduplicate function the
 * planner picks for the SQL) and ours, from the descriptor the planner export writes for the same
 * exec node, both in Flink's keyed operator harness.
 */
final class DedupHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, c DOUBLE, d DECIMAL(10, 2),"
            + " ts TIMESTAMP(3), pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ("
            + " 'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";

    /** {@code ROW_NUMBER() ... = 1} over {@code order} ("pt ASC", "ts DESC", ...), the row number dropped. */
    static String query(String order) {
        return "SELECT k1, k2, a, c, d, ts FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY k1, k2 ORDER BY " + order
                + ") AS rn FROM bids) WHERE rn = 1";
    }

    /** Stock's operator for the SQL and the accelerated one's spec, from the same exec node. */
    record Planned(StockKeyedOperator stock, DedupSpec spec) {
        AcceleratedDedupOperator newAccelerated() {
            return new AcceleratedDedupOperator(spec);
        }

        AcceleratedDedupOperator newAccelerated(int batchSize) {
            return new AcceleratedDedupOperator(new DedupSpec(spec.descriptorJson(), spec.inputType(),
                    spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.maxDelay(), spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }
    }

    private DedupHarnesses() {}

    /**
     * Plans {@code INSERT INTO results <select>} into an upsert-kafka sink keyed by k1, k2
     * ({@code upsert}) or a print sink taking the whole changelog, with {@code options} set.
     */
    static Planned plan(String select, boolean upsert, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, upsert ? List.of("k1", "k2") : List.of());
        List<FoundNode<DedupNode>> found = DedupNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one deduplication, found " + found.size());
        }
        DedupExport export = DedupExport.of("bids-dedup", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the deduplication stays stock: " + export.fallback());
        }
        RowType inputType = found.get(0).fields().inputType();
        return new Planned(StockKeyedOperator.translated(plans, graph,
                f -> f.getClass().getPackageName().endsWith("operators.deduplicate"), inputType),
                new DedupSpec(export.toJson(), inputType, TestPython.path()));
    }

    /** One input event: a row with or without a timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    /**
     * A random insert-only stream over {@code inputType} drawn from a pool of {@code distinct}
     * rows (keys from a few values, NULL included; values with NULLs, NaN and signed zeros), so
     * that a key sees rows equal to its kept one; rowtimes from a few values (ties), now and then NULL
     * (which stock reads as 0 from a binary row);
     * most rows with a record timestamp, and a watermark now and then.
     */
    static List<Event> stream(RowType inputType, long seed, int rows, int distinct) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<RowData> pool = new ArrayList<>();
        for (int p = 0; p < distinct; p++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                boolean time = inputType.getTypeAt(f).getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        || inputType.getTypeAt(f).getTypeRoot() == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
                row.setField(f, time ? (random.nextInt(10) == 0 ? null : TimestampData.fromEpochMillis(1_000L
                        * random.nextInt(6)))
                        : WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f), random));
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

    /**
     * Feeds a fresh copy of the event's row, as a task deserializes each record anew: stock's
     * deduplicate functions set the RowKind of the rows they get and keep them in heap state.
     */
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
