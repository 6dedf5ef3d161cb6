package org.flinkaccelerator.runtime.groupwindow;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.window.groupwindow.operator.WindowOperator;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.groupwindow.GroupWindowExport;
import org.flinkaccelerator.planner.groupwindow.GroupWindowNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's group window aggregate (the {@code AggregateWindowOperator} the planner builds for
 * the SQL) and ours, from the descriptor the planner export writes for the same exec node, both
 * in Flink's keyed operator harness.
 */
final class GroupWindowHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, ts TIMESTAMP(3),"
            + " pt AS PROCTIME(), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";
    /** Rowtimes start here unless a stream says otherwise, so no window ends before the epoch. */
    static final long START = 1_000_000L;

    /** The GROUP BY window of each kind, and the prefix of its property functions. */
    static final String TUMBLE = "TUMBLE(ts, INTERVAL '1' SECOND)";
    static final String HOP = "HOP(ts, INTERVAL '0.2' SECOND, INTERVAL '0.5' SECOND)";
    static final String SESSION = "SESSION(ts, INTERVAL '0.15' SECOND)";

    /**
     * COUNT(*), COUNT, SUM over BIGINT, INT and DOUBLE, MIN and MAX of a DOUBLE, MAX of an INT, AVG
     * of a BIGINT, a FILTERed COUNT, and COUNT and AVG of a DOUBLE (which the planner rewrites into
     * $SUM0 and COUNT) per (k1, k2) and window, with the window's start, end and rowtime.
     */
    static String query(String window) {
        String function = window.substring(0, window.indexOf('('));
        String args = window.substring(window.indexOf('(') + 1, window.length() - 1);
        return "SELECT k1, k2, COUNT(*), COUNT(b), SUM(a), SUM(b), SUM(c), MIN(c), MAX(c), MAX(b), AVG(a),"
                + " COUNT(*) FILTER (WHERE b > 0), COUNT(c), AVG(c), " + function + "_START(" + args + "), " + function + "_END(" + args
                + "), " + function + "_ROWTIME(" + args + ") FROM bids GROUP BY k1, k2, " + window;
    }

    /** Stock's operator for the SQL and the accelerated one's spec, from the same exec node. */
    record Planned(StockKeyedOperator stock, GroupWindowSpec spec) {
        AcceleratedGroupWindowOperator newAccelerated() {
            return new AcceleratedGroupWindowOperator(spec);
        }

        AcceleratedGroupWindowOperator newAccelerated(int batchSize) {
            return new AcceleratedGroupWindowOperator(new GroupWindowSpec(spec.descriptorJson(), spec.inputType(),
                    spec.rowtimeIndex(), spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }
    }

    private GroupWindowHarnesses() {}

    private static ExecNodeGraph graph(SqlPlans plans, String select, String... options) {
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        return StockKeyedOperator.plan(plans, select, List.of());
    }

    /** Plans {@code INSERT INTO results <select>} into a print sink, with {@code options} set. */
    static Planned plan(String select, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = graph(plans, select, options);
        List<FoundNode<GroupWindowNode>> found = GroupWindowNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one group window aggregate, found " + found.size());
        }
        GroupWindowExport export = GroupWindowExport.of("bids-group-window", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the group window aggregate stays stock: " + export.fallback());
        }
        RowType inputType = found.get(0).fields().inputType();
        return new Planned(StockKeyedOperator.translatedOperator(plans, graph, o -> o instanceof WindowOperator<?, ?>,
                inputType), new GroupWindowSpec(export.toJson(), inputType,
                GroupWindowExport.rowtimeIndex(found.get(0).fields()), TestPython.path()));
    }

    /** The export's reasons for the group window aggregate of {@code select} (empty when it runs accelerated). */
    static List<String> stockReasons(String select, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = graph(plans, select, options);
        FoundNode<GroupWindowNode> found = GroupWindowNode.find(graph).get(0);
        return GroupWindowExport.of("bids-group-window", found.fields(), plans.config()).fallback().stream()
                .map(Object::toString).toList();
    }

    /** Stock's count of late rows dropped (WindowOperator keeps its getter protected). */
    static long stockLateRows(OneInputStreamOperator<RowData, RowData> stock) throws Exception {
        Method getter = WindowOperator.class.getDeclaredMethod("getNumLateRecordsDropped");
        getter.setAccessible(true);
        return ((Counter) getter.invoke(stock)).getCount();
    }

    /** One input event: a row with its record timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    /**
     * A random insert-only stream over {@code inputType}: keys from a few values (NULL included),
     * values with NULLs, NaN, signed zeros and values near the integer limits, rowtimes out of
     * order by up to ±400 ms, watermarks now and then (some not advancing, some passing rows still
     * to come: those arrive late), and at the end a watermark that passes every window.
     */
    static List<Event> stream(RowType inputType, long seed, int rows) {
        return stream(inputType, seed, rows, START);
    }

    /** As {@link #stream(RowType, long, int)}, with rowtimes from {@code start} (negative: before the epoch). */
    static List<Event> stream(RowType inputType, long seed, int rows, long start) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<Event> out = new ArrayList<>();
        long watermark = Long.MIN_VALUE;
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                row.setField(f, LogicalTypeChecks.isRowtimeAttribute(inputType.getTypeAt(f))
                        ? TimestampData.fromEpochMillis(start + 10L * i + 100L * (random.nextInt(9) - 4)
                                + random.nextInt(10))
                        : WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f), random));
            }
            out.add(new Event(binary.toBinaryRow(row).copy(), start + 10L * i, null));
            if (random.nextInt(25) == 0) {
                watermark = random.nextInt(4) == 0 && watermark != Long.MIN_VALUE ? watermark
                        : start + 10L * i + 100L * (random.nextInt(6) - 3);
                out.add(new Event(null, null, watermark));
            }
        }
        out.add(new Event(null, null, Long.MAX_VALUE));
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
