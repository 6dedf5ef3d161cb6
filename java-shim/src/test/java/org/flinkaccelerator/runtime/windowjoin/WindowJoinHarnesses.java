package org.flinkaccelerator.runtime.windowjoin;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.join.window.WindowJoinOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.planner.windowjoin.WindowJoinExport;
import org.flinkaccelerator.planner.windowjoin.WindowJoinNode;
import org.flinkaccelerator.runtime.join.JoinHarnesses;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's window join ({@code WindowJoinOperator} as the planner translates it for some SQL,
 * with its key selectors) and the accelerated one, for the same inputs, both in Flink's keyed
 * two-input operator harness ({@link JoinHarnesses.Planned#run}: checkpoints, rescaled restores).
 */
final class WindowJoinHarnesses {
    static final String TABLES = "CREATE TABLE auctions (seller BIGINT, item STRING, price BIGINT, ts TIMESTAMP(3),"
            + " WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'auctions',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json');\n"
            + "CREATE TABLE persons (id BIGINT, name STRING, credit BIGINT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts)"
            + " WITH ('connector' = 'kafka', 'topic' = 'persons', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";
    static final String NAME = "auctions-window-join";
    /** The window of both inputs' TVFs: 10-second tumbling windows (every window end a multiple of 10 s). */
    static final long SIZE = 10_000L;
    static final String AUCTIONS = "(SELECT seller, item, price, window_start, window_end FROM"
            + " TABLE(TUMBLE(TABLE auctions, DESCRIPTOR(ts), INTERVAL '10' SECOND)))";
    static final String PERSONS = "(SELECT id, name, credit, window_start, window_end FROM"
            + " TABLE(TUMBLE(TABLE persons, DESCRIPTOR(ts), INTERVAL '10' SECOND)))";
    static final String ON = " ON a.seller = p.id AND a.window_start = p.window_start AND a.window_end = p.window_end";

    private WindowJoinHarnesses() {}

    /** A {@code <type> JOIN} of the auctions' and persons' windows, with {@code condition} ANDed to the keys. */
    static String join(String type, String condition) {
        return "SELECT a.seller, a.item, a.price, a.window_end, p.id, p.name, p.credit FROM " + AUCTIONS + " a " + type
                + " JOIN " + PERSONS + " p" + ON + condition;
    }

    /**
     * The auctions' windows with ({@code IN}: a SEMI join) or without ({@code NOT EXISTS}: an ANTI
     * join) a person of the seller's id in the same window.
     */
    static String semiAnti(boolean anti) {
        String persons = "SELECT p.id FROM " + PERSONS + " p WHERE a.window_start = p.window_start"
                + " AND a.window_end = p.window_end";
        return "SELECT a.seller, a.item, a.price, a.window_end FROM " + AUCTIONS + " a WHERE "
                + (anti ? "NOT EXISTS (" + persons + " AND a.seller = p.id)" : "a.seller IN (" + persons + ")");
    }

    /** Stock's planned operator and its harness ({@code planned}) and the accelerated operator's spec. */
    record Planned(JoinHarnesses.Planned planned, WindowJoinSpec spec) {
        AcceleratedWindowJoinOperator newAccelerated(int batchSize) {
            return new AcceleratedWindowJoinOperator(new WindowJoinSpec(spec.descriptorJson(), spec.leftType(),
                    spec.rightType(), spec.leftWindowEnd(), spec.rightWindowEnd(), spec.shiftTimeZone(),
                    spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.sidecarTimeout(), spec.arrowLimit()));
        }
    }

    /**
     * Plans {@code select} into a print sink on {@code backend}; fails unless it has one window join
     * the export accelerates and translates to one stock {@code WindowJoinOperator} whose input rows
     * are the export's.
     */
    @SuppressWarnings("unchecked")
    static Planned plan(String select, String backend) {
        SqlPlans plans = new SqlPlans();
        plans.set("state.backend.type", backend);
        for (String table : TABLES.split(";\n")) {
            plans.env().executeSql(table);
        }
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        List<FoundNode<WindowJoinNode>> found = WindowJoinNode.find(graph);
        if (found.size() != 1 || !found.get(0).readable()) {
            throw new IllegalStateException("expected one readable window join, found " + found);
        }
        WindowJoinNode node = found.get(0).fields();
        WindowJoinExport export = WindowJoinExport.of(NAME, node, plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the window join stays stock: " + export.fallback());
        }
        TwoInputTransformation<RowData, RowData, RowData> stock = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof TwoInputTransformation<?, ?, ?> two
                    && two.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && simple.getOperator() instanceof WindowJoinOperator) {
                stock = (TwoInputTransformation<RowData, RowData, RowData>) two;
            }
            pending.addAll(t.getInputs());
        }
        if (stock == null) {
            throw new IllegalStateException("the translated plan has no WindowJoinOperator");
        }
        RowType leftType = ((InternalTypeInfo<RowData>) stock.getInputType1()).toRowType();
        RowType rightType = ((InternalTypeInfo<RowData>) stock.getInputType2()).toRowType();
        RowType outputType = ((InternalTypeInfo<RowData>) stock.getOutputType()).toRowType();
        if (!leftType.equals(node.leftType()) || !rightType.equals(node.rightType())) {
            throw new IllegalStateException("the stock window join reads " + leftType + " and " + rightType
                    + ", the export " + node.leftType() + " and " + node.rightType());
        }
        WindowJoinSpec spec = new WindowJoinSpec(export.toJson(), leftType, rightType,
                WindowJoinExport.windowEnd(node.leftWindowing()), WindowJoinExport.windowEnd(node.rightWindowing()),
                export.shiftTimeZone(), TestPython.path());
        return new Planned(new JoinHarnesses.Planned(
                (TwoInputStreamOperator<RowData, RowData, RowData>)
                        ((SimpleOperatorFactory<?>) stock.getOperatorFactory()).getOperator(),
                (KeySelector<RowData, RowData>) stock.getStateKeySelector1(),
                (KeySelector<RowData, RowData>) stock.getStateKeySelector2(),
                (TypeInformation<RowData>) stock.getStateKeyType(), leftType, rightType, outputType, null, backend),
                spec);
    }

    /** Strings of several lengths, NULL among them. */
    private static final String[] STRINGS = {"", "a", "b", "ab", "bidder", "\u00fcn\u00efcode", "a longer item name",
        null};

    /**
     * Both inputs interleaved at random over rising event time: each row's window from a time up to
     * {@code disorder} ms behind the stream's, so rows arrive out of order and some after the
     * watermark passed their window (late, dropped); keys from {@code keys} values with NULL among
     * them; watermarks of either input now and then, a few seconds behind; both inputs' final
     * watermark (end of input) last.
     */
    static List<JoinHarnesses.Event> stream(Planned planned, long seed, int rows, int keys, int disorder) {
        Random random = new Random(seed);
        RowType left = planned.planned().leftType();
        RowType right = planned.planned().rightType();
        List<JoinHarnesses.Event> out = new ArrayList<>();
        long now = 0;
        long[] watermarks = {Long.MIN_VALUE, Long.MIN_VALUE};
        for (int i = 0; i < rows; i++) {
            now += random.nextInt(300);
            boolean isLeft = random.nextBoolean();
            long time = Math.max(0, now - random.nextInt(disorder));
            long end = (Math.floorDiv(time, SIZE) + 1) * SIZE;
            RowData row = row(isLeft ? left : right, end, random, keys);
            out.add(new JoinHarnesses.Event(isLeft, row, random.nextInt(10) == 0 ? null : time, null));
            if (random.nextInt(12) == 0) {
                int side = random.nextInt(2);
                long watermark = now - 2_000 - random.nextInt(3_000);
                if (watermark > watermarks[side]) {
                    watermarks[side] = watermark;
                    out.add(new JoinHarnesses.Event(side == 0, null, null, watermark));
                }
            }
        }
        out.add(new JoinHarnesses.Event(true, null, null, Long.MAX_VALUE));
        out.add(new JoinHarnesses.Event(false, null, null, Long.MAX_VALUE));
        return out;
    }

    /** A binary row of {@code type} in the window ending at {@code end}, its other fields drawn at random. */
    private static RowData row(RowType type, long end, Random random, int keys) {
        GenericRowData row = new GenericRowData(type.getFieldCount());
        for (int i = 0; i < row.getArity(); i++) {
            String name = type.getFieldNames().get(i);
            LogicalTypeRoot root = type.getTypeAt(i).getTypeRoot();
            if (name.startsWith("window_end")) {
                row.setField(i, TimestampData.fromEpochMillis(end));
            } else if (name.startsWith("window_start")) {
                row.setField(i, TimestampData.fromEpochMillis(end - SIZE));
            } else if (root == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE) {
                row.setField(i, TimestampData.fromEpochMillis(end - 1 - random.nextInt((int) SIZE)));
            } else if (root == LogicalTypeRoot.BIGINT) {
                row.setField(i, random.nextInt(keys + 1) == 0 ? null : (long) random.nextInt(keys));
            } else if (root == LogicalTypeRoot.VARCHAR) {
                String s = STRINGS[random.nextInt(STRINGS.length)];
                row.setField(i, s == null ? null : StringData.fromString(s));
            } else {
                throw new IllegalArgumentException("no generator for field " + name + " " + type.getTypeAt(i));
            }
        }
        return new RowDataSerializer(type).toBinaryRow(row).copy();
    }
}
