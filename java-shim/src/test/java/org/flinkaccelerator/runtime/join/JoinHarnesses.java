package org.flinkaccelerator.runtime.join;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.runtime.watermarkstatus.WatermarkStatus;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.join.stream.AbstractStreamingJoinOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.apache.flink.util.function.FunctionWithException;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.join.JoinExport;
import org.flinkaccelerator.planner.join.JoinNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.RegisteredMetrics;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.RocksDbBackend;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's regular join ({@code StreamingJoinOperator} as the planner translates it for some
 * SQL, with its key selectors) and the accelerated one, for the same inputs, both in Flink's keyed
 * two-input operator harness on the state backend the SQL is planned with (RocksDB or hashmap).
 * The window join's tests run their operators through the same {@link Planned#run}.
 */
public final class JoinHarnesses {
    static final String TABLES = "CREATE TABLE auctions (seller BIGINT, item STRING, price BIGINT, ts TIMESTAMP(3),"
            + " expires TIMESTAMP(3))"
            + " WITH ('connector' = 'kafka', 'topic' = 'auctions', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');\n"
            + "CREATE TABLE persons (id BIGINT, name STRING, city STRING, ts TIMESTAMP(3), credit BIGINT)"
            + " WITH ('connector' = 'kafka', 'topic' = 'persons', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";
    /** The descriptor's name, as the planner names it after the first table the join reads. */
    static final String NAME = "auctions-join";
    /** Nexmark q3's shape: auctions joined with the persons selling them. */
    static final String QUERY = "SELECT a.item, a.price, p.name, p.city FROM auctions AS a JOIN persons AS p"
            + " ON a.seller = p.id";
    /** Nexmark q4/q9's shape: a key equality and a time range between the sides ({@code B.dateTime BETWEEN ...}). */
    static final String BETWEEN = "SELECT a.item, a.ts, a.expires, p.name, p.ts FROM auctions AS a JOIN persons AS p"
            + " ON a.seller = p.id AND p.ts BETWEEN a.ts AND a.expires";
    /** Arithmetic and comparisons across the sides, on nullable fields of both (NULL rejects a pair as FALSE does). */
    static final String ACROSS = "SELECT a.item, a.price, p.name, p.credit FROM auctions AS a JOIN persons AS p"
            + " ON a.seller = p.id AND (a.price > p.credit * 2 OR a.item < p.name)";

    private JoinHarnesses() {}

    /** Stock's join operator for the SQL, its key selectors and types, and the accelerated operator's spec. */
    public record Planned(TwoInputStreamOperator<RowData, RowData, RowData> stock, KeySelector<RowData, RowData> leftKeys,
            KeySelector<RowData, RowData> rightKeys, TypeInformation<RowData> keyType, RowType leftType,
            RowType rightType, RowType outputType, JoinSpec spec, String backend) {

        public TwoInputStreamOperator<RowData, RowData, RowData> newStock() {
            try {
                return InstantiationUtil.clone(stock, JoinHarnesses.class.getClassLoader());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        AcceleratedJoinOperator newAccelerated(int batchSize) {
            return newAccelerated(batchSize, spec.batchBytes());
        }

        /** With {@code accelerator.batch.max-bytes} at {@code batchBytes}: the size of a snapshot piece and a restore call. */
        AcceleratedJoinOperator newAccelerated(int batchSize, long batchBytes) {
            return new AcceleratedJoinOperator(new JoinSpec(spec.descriptorJson(), leftType, rightType,
                    spec.filterNullKeys(), spec.pythonExecutable(), batchSize, batchBytes, spec.maxDelay(),
                    spec.sidecarTimeout(), spec.arrowLimit()));
        }

        /** A harness running {@code operator} on the planned backend as subtask {@code subtask} of {@code parallelism}. */
        public KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData> harness(
                TwoInputStreamOperator<RowData, RowData, RowData> operator, int parallelism, int subtask)
                throws Exception {
            return harness(operator, parallelism, subtask, 0);
        }

        /**
         * As {@link #harness(TwoInputStreamOperator, int, int)}; with {@code budget} above 0 the
         * operator's OPERATOR share of the slot's managed memory is about that many bytes.
         */
        KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData> harness(
                TwoInputStreamOperator<RowData, RowData, RowData> operator, int parallelism, int subtask, long budget)
                throws Exception {
            var harness = new KeyedTwoInputStreamOperatorTestHarness<>(operator, leftKeys, rightKeys, keyType,
                    StockKeyedOperator.MAX_PARALLELISM, parallelism, subtask);
            harness.setStateBackend(backend.equals("rocksdb") ? RocksDbBackend.of(true) : new HashMapStateBackend());
            if (budget > 0) {
                harness.getStreamConfig().setManagedMemoryFractionOperatorOfUseCase(ManagedMemoryUseCase.OPERATOR,
                        (double) budget / harness.getEnvironment().getMemoryManager().getMemorySize());
            }
            harness.setup(new RowDataSerializer(outputType));
            return harness;
        }

        /**
         * Each subtask's output, one line per element: the events up to {@code cut} on
         * {@code before} subtasks with a checkpoint before each event whose index is in
         * {@code barriers}, a snapshot of every subtask, then the rest on {@code after} subtasks
         * restored from the snapshot repartitioned as Flink rescales keyed state, then the end of
         * both inputs. A row goes to the subtask owning its key's key group, a watermark to all.
         */
        public List<String> run(java.util.function.Supplier<TwoInputStreamOperator<RowData, RowData, RowData>> operators,
                List<Event> events, List<Integer> barriers, int cut, int before, int after) throws Exception {
            return run(operators, events, barriers, cut, before, after, 0);
        }

        /** As {@link #run}, each operator with a managed-memory share of about {@code budget} bytes (0: the harness's). */
        List<String> run(java.util.function.Supplier<TwoInputStreamOperator<RowData, RowData, RowData>> operators,
                List<Event> events, List<Integer> barriers, int cut, int before, int after, long budget)
                throws Exception {
            List<String> out = new ArrayList<>();
            OperatorSubtaskState[] states = new OperatorSubtaskState[before];
            List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> first = new ArrayList<>();
            try {
                for (int i = 0; i < before; i++) {
                    first.add(harness(operators.get(), before, i, budget));
                    first.get(i).open();
                }
                long checkpoint = 0;
                for (int e = 0; e < cut; e++) {
                    if (barriers.contains(e)) {
                        checkpoint++;
                        for (var harness : first) {
                            harness.prepareSnapshotPreBarrier(checkpoint);
                            harness.snapshot(checkpoint, checkpoint);
                        }
                    }
                    route(first, events.get(e));
                }
                for (int i = 0; i < before; i++) {
                    first.get(i).prepareSnapshotPreBarrier(checkpoint + 1);
                    states[i] = first.get(i).snapshot(checkpoint + 1, checkpoint + 1);
                    out.add("subtask " + i + " of " + before);
                    out.addAll(WindowAggHarnesses.output(first.get(i), outputType));
                }
            } finally {
                for (var harness : first) {
                    harness.close();
                }
            }
            OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(states);
            List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> second = new ArrayList<>();
            try {
                for (int i = 0; i < after; i++) {
                    second.add(harness(operators.get(), after, i, budget));
                    second.get(i).initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                            StockKeyedOperator.MAX_PARALLELISM, before, after, i));
                    second.get(i).open();
                }
                for (Event event : events.subList(cut, events.size())) {
                    route(second, event);
                }
                for (int i = 0; i < after; i++) {
                    second.get(i).endInput1();
                    second.get(i).endInput2();
                    out.add("subtask " + i + " of " + after);
                    out.addAll(WindowAggHarnesses.output(second.get(i), outputType));
                }
            } finally {
                for (var harness : second) {
                    harness.close();
                }
            }
            return out;
        }

        /** The snapshot of {@code operator}, one subtask, after {@code events}. */
        public OperatorSubtaskState snapshotAfter(TwoInputStreamOperator<RowData, RowData, RowData> operator,
                List<Event> events) throws Exception {
            return after(operator, events, harness -> {
                harness.prepareSnapshotPreBarrier(1);
                return harness.snapshot(1, 1);
            });
        }

        /** The metrics {@code operator} registered, by name, one subtask, after {@code events}. */
        public Map<String, Metric> metricsAfter(TwoInputStreamOperator<RowData, RowData, RowData> operator,
                List<Event> events) throws Exception {
            return after(operator, events, harness -> RegisteredMetrics.of(harness.getOperator()));
        }

        /** What {@code read} takes of a one-subtask harness of {@code operator} after {@code events}. */
        private <T> T after(TwoInputStreamOperator<RowData, RowData, RowData> operator, List<Event> events,
                FunctionWithException<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>, T,
                        Exception> read) throws Exception {
            try (var harness = harness(operator, 1, 0)) {
                harness.open();
                for (Event event : events) {
                    route(List.of(harness), event);
                }
                return read.apply(harness);
            }
        }

        /** The metrics {@code operator} registered, by name, one subtask, after {@code events} and the end of both inputs. */
        Map<String, Metric> metricsAtEnd(TwoInputStreamOperator<RowData, RowData, RowData> operator,
                List<Event> events) throws Exception {
            return after(operator, events, harness -> {
                harness.endInput1();
                harness.endInput2();
                return RegisteredMetrics.of(harness.getOperator());
            });
        }

        /** How many records stock emits for each of {@code events}, on one subtask without checkpoints. */
        int[] stockRecordsPerEvent(List<Event> events) throws Exception {
            int[] out = new int[events.size()];
            try (var harness = harness(newStock(), 1, 0)) {
                harness.open();
                int before = 0;
                for (int e = 0; e < events.size(); e++) {
                    route(List.of(harness), events.get(e));
                    int now = (int) harness.getOutput().stream().filter(o -> o instanceof StreamRecord<?>).count();
                    out[e] = now - before;
                    before = now;
                }
            }
            return out;
        }

        /** Hands {@code event} to the subtask of {@code subtasks} owning its row's key, a watermark or status to all. */
        void route(List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> subtasks,
                Event event) throws Exception {
            if (event.idle() != null) {
                WatermarkStatus status = event.idle() ? WatermarkStatus.IDLE : WatermarkStatus.ACTIVE;
                for (var harness : subtasks) {
                    if (event.left()) {
                        harness.processWatermarkStatus1(status);
                    } else {
                        harness.processWatermarkStatus2(status);
                    }
                }
                return;
            }
            if (event.row() == null) {
                for (var harness : subtasks) {
                    if (event.left()) {
                        harness.processWatermark1(new Watermark(event.watermark()));
                    } else {
                        harness.processWatermark2(new Watermark(event.watermark()));
                    }
                }
                return;
            }
            RowData key = (event.left() ? leftKeys : rightKeys).getKey(event.row());
            var harness = subtasks.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(key,
                    StockKeyedOperator.MAX_PARALLELISM, subtasks.size()));
            // A fresh copy of the row, as a task deserializes each record anew.
            RowData row = ((BinaryRowData) event.row()).copy();
            StreamRecord<RowData> record = event.timestamp() == null ? new StreamRecord<>(row)
                    : new StreamRecord<>(row, event.timestamp());
            if (event.left()) {
                harness.processElement1(record);
            } else {
                harness.processElement2(record);
            }
        }
    }

    /** The stock reasons the export gives the one join of the SQL planned with {@code options} (none: accelerated). */
    static List<String> stockReasons(String select, String... options) {
        SqlPlans plans = plans(options);
        FoundNode<JoinNode> found = only(StockKeyedOperator.plan(plans, select, List.of()));
        if (!found.readable()) {
            return List.of(found.stock().toString());
        }
        return JoinExport.of(NAME, found.fields(), plans.config()).fallback().stream().map(Object::toString).toList();
    }

    /** The tables, with {@code options} set after the RocksDB backend. */
    static SqlPlans plans(String... options) {
        SqlPlans plans = new SqlPlans();
        plans.set("state.backend.type", "rocksdb");
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        for (String table : TABLES.split(";\n")) {
            plans.env().executeSql(table);
        }
        return plans;
    }

    static FoundNode<JoinNode> only(ExecNodeGraph graph) {
        List<FoundNode<JoinNode>> found = JoinNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one regular join, found " + found.size());
        }
        return found.get(0);
    }

    /**
     * Plans {@code select} into a print sink; fails unless it has one regular join the export
     * accelerates and translates to one stock {@code StreamingJoinOperator} (or
     * {@code StreamingSemiAntiJoinOperator}), whose input rows are the export's.
     */
    static Planned plan(String select) throws Exception {
        return plan(select, "rocksdb");
    }

    /**
     * As {@link #plan(String)}, with {@code state.backend.type} {@code backend} and then
     * {@code options} (name, value, ...) set.
     */
    @SuppressWarnings("unchecked")
    static Planned plan(String select, String backend, String... options) throws Exception {
        String[] all = new String[options.length + 2];
        all[0] = "state.backend.type";
        all[1] = backend;
        System.arraycopy(options, 0, all, 2, options.length);
        SqlPlans plans = plans(all);
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        FoundNode<JoinNode> join = only(graph);
        JoinExport export = JoinExport.of(NAME, join.fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the join stays stock: " + export.fallback());
        }
        TwoInputTransformation<RowData, RowData, RowData> found = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof TwoInputTransformation<?, ?, ?> two
                    && two.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && simple.getOperator() instanceof AbstractStreamingJoinOperator) {
                found = (TwoInputTransformation<RowData, RowData, RowData>) two;
            }
            pending.addAll(t.getInputs());
        }
        if (found == null) {
            throw new IllegalStateException("the translated plan has no StreamingJoinOperator or"
                    + " StreamingSemiAntiJoinOperator");
        }
        RowType leftType = ((InternalTypeInfo<RowData>) found.getInputType1()).toRowType();
        RowType rightType = ((InternalTypeInfo<RowData>) found.getInputType2()).toRowType();
        RowType outputType = ((InternalTypeInfo<RowData>) found.getOutputType()).toRowType();
        if (!leftType.equals(join.fields().leftType()) || !rightType.equals(join.fields().rightType())) {
            throw new IllegalStateException("the stock join reads " + leftType + " and " + rightType
                    + ", the export " + join.fields().leftType() + " and " + join.fields().rightType());
        }
        JoinSpec spec = new JoinSpec(export.toJson(), leftType, rightType, join.fields().joinSpec().getFilterNulls(),
                TestPython.path());
        return new Planned((TwoInputStreamOperator<RowData, RowData, RowData>)
                ((SimpleOperatorFactory<?>) found.getOperatorFactory()).getOperator(),
                (KeySelector<RowData, RowData>) found.getStateKeySelector1(),
                (KeySelector<RowData, RowData>) found.getStateKeySelector2(),
                (TypeInformation<RowData>) found.getStateKeyType(), leftType, rightType, outputType, spec, backend);
    }

    /**
     * One input event: a row, a watermark ({@code row} null) or a watermark status ({@code idle}
     * not null: IDLE or ACTIVE) of the left input or the right one.
     */
    public record Event(boolean left, RowData row, Long timestamp, Long watermark, Boolean idle) {
        public Event(boolean left, RowData row, Long timestamp, Long watermark) {
            this(left, row, timestamp, watermark, null);
        }

        static Event status(boolean left, boolean idle) {
            return new Event(left, null, null, null, idle);
        }
    }

    /** Strings of several lengths (inline in the binary row up to 7 bytes, else in its variable part). */
    private static final String[] STRINGS = {"", "a", "b", "ab", "bidder", "\u00fcn\u00efcode", "a longer item name",
        "zz", "yet another, longer string value"};

    /**
     * A random interleaving of both inputs: rows drawn from a pool of {@code distinct} per input
     * (so rows repeat), keys from a few values with NULL among them (so keys have many matches and
     * a NULL key joins nothing), strings of several lengths (so the serialized rows differ in
     * length as well as in bytes), most rows with a record timestamp, and a watermark of either
     * input now and then.
     */
    static List<Event> stream(Planned planned, long seed, int rows, int distinct) {
        return stream(planned, seed, rows, distinct, 4);
    }

    /**
     * As {@link #stream(Planned, long, int, int)}, with keys from {@code keys} values: with many
     * keys, an outer join's rows wait unmatched for a while and are matched later.
     */
    static List<Event> stream(Planned planned, long seed, int rows, int distinct, int keys) {
        Random random = new Random(seed);
        return stream(random, rows, pool(planned.leftType(), random, distinct, false, keys),
                pool(planned.rightType(), random, distinct, false, keys));
    }

    /**
     * As {@link #stream(Planned, long, int, int)}, with {@code distinct} rows per input over 4 keys
     * (hundreds of distinct rows per key), plus per input {@code crowd} rows of one key whose
     * {@code BinaryRowData.hashCode}s, spread as {@code java.util.HashMap} spreads them, share
     * their low 8 bits: one bucket of that key's HashMap up to 256 buckets, so it turns into a tree.
     */
    static List<Event> hotStream(Planned planned, long seed, int rows, int distinct, int crowd) {
        Random random = new Random(seed);
        List<RowData> leftPool = pool(planned.leftType(), random, distinct);
        leftPool.addAll(sharingABucket(planned.leftType(), planned.leftKeys(), random, crowd));
        List<RowData> rightPool = pool(planned.rightType(), random, distinct);
        rightPool.addAll(sharingABucket(planned.rightType(), planned.rightKeys(), random, crowd));
        return stream(random, rows, leftPool, rightPool);
    }

    /**
     * As {@link #hotStream}, crowding one bucket of the left input only: a semi or anti join walks
     * the left rows of a key in order and only counts the right ones (whose rows may be the key alone).
     */
    static List<Event> hotLeftStream(Planned planned, long seed, int rows, int distinct, int crowd) {
        Random random = new Random(seed);
        List<RowData> leftPool = pool(planned.leftType(), random, distinct);
        leftPool.addAll(sharingABucket(planned.leftType(), planned.leftKeys(), random, crowd));
        return stream(random, rows, leftPool, pool(planned.rightType(), random, distinct));
    }

    private static List<RowData> sharingABucket(RowType type, KeySelector<RowData, RowData> keys, Random random,
            int crowd) {
        java.util.Map<List<Object>, List<RowData>> buckets = new java.util.HashMap<>();
        try {
            // Distinct rows: a row drawn many times (NULLs in both fields, say) would fill a bucket by itself.
            for (RowData row : new java.util.LinkedHashSet<>(pool(type, random, 60_000, true))) {
                BinaryRowData key = ((BinaryRowData) keys.getKey(row)).copy();
                int h = row.hashCode();
                if (!key.anyNull()) {
                    buckets.computeIfAbsent(List.of(key, (h ^ (h >>> 16)) & 255), b -> new ArrayList<>()).add(row);
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        List<RowData> largest = buckets.values().stream().max(java.util.Comparator.comparingInt(List::size))
                .orElseThrow();
        if (largest.size() < crowd) {
            throw new IllegalStateException("only " + largest.size() + " distinct rows share a bucket, not " + crowd);
        }
        return new ArrayList<>(largest.subList(0, crowd));
    }

    /**
     * As {@link #stream(Planned, long, int, int)}, with a watermark of either input after three
     * rows in four (each input's rising) and, with {@code statuses}, an input going idle now and
     * then (no watermarks while idle; both idle at times, when the operator's status changes) and
     * active again before its next row, as Flink's input valve marks it.
     */
    static List<Event> watermarkedStream(Planned planned, long seed, int rows, int distinct, boolean statuses) {
        Random random = new Random(seed);
        List<RowData> leftPool = pool(planned.leftType(), random, distinct);
        List<RowData> rightPool = pool(planned.rightType(), random, distinct);
        boolean[] idle = new boolean[2];
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            boolean left = random.nextBoolean();
            if (idle[left ? 0 : 1]) {
                idle[left ? 0 : 1] = false;
                out.add(Event.status(left, false));
            }
            List<RowData> pool = left ? leftPool : rightPool;
            out.add(new Event(left, pool.get(random.nextInt(pool.size())), random.nextInt(10) == 0 ? null : 1_000L + i,
                    null));
            int marked = random.nextInt(2);
            if (random.nextInt(4) != 0 && !idle[marked]) {
                out.add(new Event(marked == 0, null, null, 1_000L + i));
            }
            int going = random.nextInt(2);
            if (statuses && random.nextInt(4) == 0 && !idle[going]) {
                idle[going] = true;
                out.add(Event.status(going == 0, true));
            }
        }
        return out;
    }

    private static List<Event> stream(Random random, int rows, List<RowData> leftPool, List<RowData> rightPool) {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            boolean left = random.nextBoolean();
            List<RowData> pool = left ? leftPool : rightPool;
            out.add(new Event(left, pool.get(random.nextInt(pool.size())), random.nextInt(10) == 0 ? null : 1_000L + i,
                    null));
            if (random.nextInt(50) == 0) {
                out.add(new Event(random.nextBoolean(), null, null, 1_000L + i));
            }
        }
        return out;
    }

    private static List<RowData> pool(RowType type, Random random, int distinct) {
        return pool(type, random, distinct, false);
    }

    private static List<RowData> pool(RowType type, Random random, int distinct, boolean varied) {
        return pool(type, random, distinct, varied, 4);
    }

    /**
     * {@code distinct} random rows, keys from {@code keys} values; with {@code varied}, strings from
     * a million values, not from STRINGS.
     */
    private static List<RowData> pool(RowType type, Random random, int distinct, boolean varied, int keys) {
        RowDataSerializer binary = new RowDataSerializer(type);
        List<RowData> pool = new ArrayList<>();
        for (int p = 0; p < distinct; p++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(f, value(type.getTypeAt(f), type.getFieldNames().get(f), random, varied, keys));
            }
            pool.add(binary.toBinaryRow(row).copy());
        }
        return pool;
    }

    private static Object value(LogicalType type, String name, Random random, boolean varied, int keys) {
        boolean key = name.equals("seller") || name.equals("id");
        if (random.nextInt(key ? 10 : 6) == 0 && type.isNullable()) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BIGINT -> key ? (long) random.nextInt(keys) : (long) random.nextInt(2000) - 1000;
            case VARCHAR, CHAR -> StringData.fromString(varied ? "row " + random.nextInt(1_000_000)
                    : STRINGS[random.nextInt(STRINGS.length)]);
            // A few seconds apart, so a time range holds some of the other side's times and not others.
            case TIMESTAMP_WITHOUT_TIME_ZONE -> TimestampData.fromEpochMillis(random.nextInt(20) * 1000L);
            default -> throw new IllegalArgumentException("no values for " + type);
        };
    }
}
