package org.flinkaccelerator.runtime.join;

import java.lang.reflect.Field;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecJoin;
import org.apache.flink.table.planner.plan.nodes.exec.visitor.AbstractExecNodeExactlyOnceVisitor;
import org.apache.flink.table.runtime.operators.join.stream.StreamingJoinOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.RocksDbBackend;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's regular join ({@code StreamingJoinOperator} as the planner translates it for some
 * SQL, with its key selectors) and the accelerated one, for the same inputs, both in Flink's keyed
 * two-input operator harness on the RocksDB state backend.
 */
final class JoinHarnesses {
    static final String TABLES = "CREATE TABLE auctions (seller BIGINT, item STRING, price BIGINT, ts TIMESTAMP(3))"
            + " WITH ('connector' = 'kafka', 'topic' = 'auctions', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json');\n"
            + "CREATE TABLE persons (id BIGINT, name STRING, city STRING, ts TIMESTAMP(3))"
            + " WITH ('connector' = 'kafka', 'topic' = 'persons', 'properties.bootstrap.servers' = 'localhost:9092',"
            + " 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')";
    /** Nexmark q3's shape: auctions joined with the persons selling them. */
    static final String QUERY = "SELECT a.item, a.price, p.name, p.city FROM auctions AS a JOIN persons AS p"
            + " ON a.seller = p.id";

    private JoinHarnesses() {}

    /** Stock's join operator for the SQL, its key selectors and types, and the accelerated operator's spec. */
    record Planned(TwoInputStreamOperator<RowData, RowData, RowData> stock, KeySelector<RowData, RowData> leftKeys,
            KeySelector<RowData, RowData> rightKeys, TypeInformation<RowData> keyType, RowType leftType,
            RowType rightType, RowType outputType, JoinSpec spec) {

        TwoInputStreamOperator<RowData, RowData, RowData> newStock() {
            try {
                return InstantiationUtil.clone(stock, JoinHarnesses.class.getClassLoader());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        AcceleratedJoinOperator newAccelerated(int batchSize) {
            return new AcceleratedJoinOperator(new JoinSpec(spec.descriptorJson(), leftType, rightType,
                    spec.filterNullKeys(), spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.maxDelay(),
                    spec.sidecarTimeout(), spec.arrowLimit()));
        }

        /** A harness running {@code operator} on RocksDB as subtask {@code subtask} of {@code parallelism}. */
        KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData> harness(
                TwoInputStreamOperator<RowData, RowData, RowData> operator, int parallelism, int subtask)
                throws Exception {
            var harness = new KeyedTwoInputStreamOperatorTestHarness<>(operator, leftKeys, rightKeys, keyType,
                    StockKeyedOperator.MAX_PARALLELISM, parallelism, subtask);
            harness.setStateBackend(RocksDbBackend.of(true));
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
        List<String> run(java.util.function.Supplier<TwoInputStreamOperator<RowData, RowData, RowData>> operators,
                List<Event> events, List<Integer> barriers, int cut, int before, int after) throws Exception {
            List<String> out = new ArrayList<>();
            OperatorSubtaskState[] states = new OperatorSubtaskState[before];
            List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> first = new ArrayList<>();
            try {
                for (int i = 0; i < before; i++) {
                    first.add(harness(operators.get(), before, i));
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
                    second.add(harness(operators.get(), after, i));
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
        OperatorSubtaskState snapshotAfter(TwoInputStreamOperator<RowData, RowData, RowData> operator,
                List<Event> events) throws Exception {
            try (var harness = harness(operator, 1, 0)) {
                harness.open();
                for (Event event : events) {
                    route(List.of(harness), event);
                }
                harness.prepareSnapshotPreBarrier(1);
                return harness.snapshot(1, 1);
            }
        }

        private void route(List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> subtasks,
                Event event) throws Exception {
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

    /** Plans {@code select} into a print sink; fails unless it translates to one stock regular join. */
    @SuppressWarnings("unchecked")
    static Planned plan(String select) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (String table : TABLES.split(";\n")) {
            plans.env().executeSql(table);
        }
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, List.of());
        TwoInputTransformation<RowData, RowData, RowData> found = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof TwoInputTransformation<?, ?, ?> two
                    && two.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && simple.getOperator() instanceof StreamingJoinOperator) {
                found = (TwoInputTransformation<RowData, RowData, RowData>) two;
            }
            pending.addAll(t.getInputs());
        }
        if (found == null) {
            throw new IllegalStateException("the translated plan has no StreamingJoinOperator");
        }
        RowType leftType = ((InternalTypeInfo<RowData>) found.getInputType1()).toRowType();
        RowType rightType = ((InternalTypeInfo<RowData>) found.getInputType2()).toRowType();
        RowType outputType = ((InternalTypeInfo<RowData>) found.getOutputType()).toRowType();
        boolean[] filterNulls = joinSpec(graph).getFilterNulls();
        JoinSpec spec = new JoinSpec(descriptor(leftType, rightType, outputType), leftType, rightType, filterNulls,
                TestPython.path());
        return new Planned((TwoInputStreamOperator<RowData, RowData, RowData>)
                ((SimpleOperatorFactory<?>) found.getOperatorFactory()).getOperator(),
                (KeySelector<RowData, RowData>) found.getStateKeySelector1(),
                (KeySelector<RowData, RowData>) found.getStateKeySelector2(),
                (TypeInformation<RowData>) found.getStateKeyType(), leftType, rightType, outputType, spec);
    }

    /** The planner's join spec of the graph's one StreamExecJoin. */
    private static org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec joinSpec(ExecNodeGraph graph)
            throws Exception {
        List<StreamExecJoin> joins = new ArrayList<>();
        AbstractExecNodeExactlyOnceVisitor visitor = new AbstractExecNodeExactlyOnceVisitor() {
            @Override
            protected void visitNode(ExecNode<?> node) {
                if (node instanceof StreamExecJoin join) {
                    joins.add(join);
                }
                visitInputs(node);
            }
        };
        graph.getRootNodes().forEach(n -> n.accept(visitor));
        Field field = StreamExecJoin.class.getDeclaredField("joinSpec");
        field.setAccessible(true);
        return (org.apache.flink.table.planner.plan.nodes.exec.spec.JoinSpec) field.get(joins.get(0));
    }

    /** The join stage's descriptor for an INNER join of these rows (the planner's export comes with the rule). */
    static String descriptor(RowType leftType, RowType rightType, RowType outputType) throws Exception {
        List<Map<String, Object>> input = new ArrayList<>();
        input.add(field("$key", "VARBINARY(2147483647)"));
        input.add(field("$key_group", "INT NOT NULL"));
        input.add(field("$side", "TINYINT NOT NULL"));
        input.add(field("$order", "VARBINARY(2147483647) NOT NULL"));
        List<Map<String, Object>> output = new ArrayList<>();
        for (RowType.RowField f : outputType.getFields()) {
            input.add(field(f.getName(), f.getType().copy(true).asSerializableString()));
            output.add(field(f.getName(), f.getType().asSerializableString()));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", 1);
        out.put("kind", "join");
        out.put("name", "auctions-join");
        out.put("join_type", "INNER");
        out.put("left_arity", leftType.getFieldCount());
        out.put("input", Map.of("fields", input));
        out.put("output", Map.of("fields", output));
        out.put("state", Map.of("format", 1, "fingerprint", "ab".repeat(32)));
        return new ObjectMapper().writeValueAsString(out);
    }

    private static Map<String, Object> field(String name, String type) {
        Map<String, Object> f = new LinkedHashMap<>();
        f.put("name", name);
        f.put("type", type);
        return f;
    }

    /** One input event: a row or a watermark ({@code row} null) of the left input or the right one. */
    record Event(boolean left, RowData row, Long timestamp, Long watermark) {}

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
        Random random = new Random(seed);
        List<RowData> leftPool = pool(planned.leftType(), random, distinct);
        List<RowData> rightPool = pool(planned.rightType(), random, distinct);
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
        RowDataSerializer binary = new RowDataSerializer(type);
        List<RowData> pool = new ArrayList<>();
        for (int p = 0; p < distinct; p++) {
            GenericRowData row = new GenericRowData(type.getFieldCount());
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(f, value(type.getTypeAt(f), type.getFieldNames().get(f), random));
            }
            pool.add(binary.toBinaryRow(row).copy());
        }
        return pool;
    }

    private static Object value(LogicalType type, String name, Random random) {
        boolean key = name.equals("seller") || name.equals("id");
        if (random.nextInt(key ? 10 : 6) == 0 && type.isNullable()) {
            return null;
        }
        return switch (type.getTypeRoot()) {
            case BIGINT -> key ? (long) random.nextInt(4) : (long) random.nextInt(2000) - 1000;
            case VARCHAR, CHAR -> StringData.fromString(STRINGS[random.nextInt(STRINGS.length)]);
            default -> throw new IllegalArgumentException("no values for " + type);
        };
    }
}
