package org.flinkaccelerator.runtime.groupagg;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.aggregate.GroupAggFunction;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.planner.groupagg.GroupAggExport;
import org.flinkaccelerator.planner.groupagg.GroupAggNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's group aggregate ({@code KeyedProcessOperator} running {@code GroupAggFunction}, as
 * the planner translates it) and ours for the same SQL, both in Flink's keyed operator harness: ours
 * from the descriptor the planner export writes for the same exec node.
 */
final class GroupAggHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, d DECIMAL(10, 2),"
            + " ts TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";

    /** Where the aggregate's rows go: an upsert sink (no update-befores) or one taking the whole changelog. */
    enum Sink {
        UPSERT,
        RETRACT
    }

    record Planned(OneInputStreamOperator<RowData, RowData> stock, KeySelector<RowData, RowData> keySelector,
            TypeInformation<RowData> keyType, RowType inputType, RowType outputType, GroupAggSpec spec) {

        OneInputStreamOperator<RowData, RowData> newStock() throws Exception {
            return InstantiationUtil.clone(stock, GroupAggHarnesses.class.getClassLoader());
        }

        AcceleratedGroupAggOperator newAccelerated() {
            return new AcceleratedGroupAggOperator(spec);
        }

        AcceleratedGroupAggOperator newAccelerated(int batchSize) {
            return new AcceleratedGroupAggOperator(new GroupAggSpec(spec.descriptorJson(), spec.inputType(),
                    spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.maxDelay(), spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }

        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
                OneInputStreamOperator<RowData, RowData> operator, int maxParallelism, int parallelism, int subtask)
                throws Exception {
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                    new KeyedOneInputStreamOperatorTestHarness<>(operator, keySelector, keyType, maxParallelism,
                            parallelism, subtask);
            harness.setup(new RowDataSerializer(outputType));
            return harness;
        }
    }

    private GroupAggHarnesses() {}

    /** Plans {@code INSERT INTO results <select>} ({@code keys}: the results' primary key for {@link Sink#UPSERT}). */
    @SuppressWarnings("unchecked")
    static Planned plan(String select, Sink sink, String keys, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        List<String> primaryKey = keys.isEmpty() ? List.of() : List.of(keys.split(",\\s*"));
        Schema.Builder schema = Schema.newBuilder();
        // An upsert sink's key columns are NOT NULL (Flink's sink enforcer checks the rows, not the harness).
        for (var column : plans.env().sqlQuery(select).getResolvedSchema().getColumns()) {
            schema.column(column.getName(), primaryKey.contains(column.getName()) ? column.getDataType().notNull()
                    : column.getDataType());
        }
        TableDescriptor results = sink == Sink.UPSERT
                ? TableDescriptor.forConnector("upsert-kafka").schema(schema.primaryKey(primaryKey).build())
                        .option("topic", "results").option("properties.bootstrap.servers", "localhost:9092")
                        .option("key.format", "json").option("value.format", "json").build()
                : TableDescriptor.forConnector("print").schema(schema.build()).build();
        plans.env().createTemporaryTable("results", results);
        ExecNodeGraph graph = plans.plan("INSERT INTO results " + select + ";\n");
        List<GroupAggNode.Found> found = GroupAggNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one group aggregate, found " + found.size());
        }
        GroupAggExport export = GroupAggExport.of("bids-group-agg", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the group aggregate stays stock: " + export.fallback());
        }
        RowType inputType = found.get(0).fields().inputType();
        GroupAggSpec spec = new GroupAggSpec(export.toJson(), inputType, TestPython.path());

        OneInputTransformation<RowData, RowData> groupAgg = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof OneInputTransformation<?, ?> one
                    && one.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && simple.getOperator() instanceof KeyedProcessOperator<?, ?, ?> keyed
                    && keyed.getUserFunction() instanceof GroupAggFunction) {
                groupAgg = (OneInputTransformation<RowData, RowData>) one;
            }
            pending.addAll(t.getInputs());
        }
        if (groupAgg == null) {
            throw new IllegalStateException("the translated plan has no GroupAggFunction");
        }
        RowType stockInput = ((InternalTypeInfo<RowData>) groupAgg.getInputType()).toRowType();
        if (!stockInput.equals(inputType)) {
            throw new IllegalStateException("the stock operator reads " + stockInput + ", the export " + inputType);
        }
        return new Planned((OneInputStreamOperator<RowData, RowData>)
                ((SimpleOperatorFactory<?>) groupAgg.getOperatorFactory()).getOperator(),
                (KeySelector<RowData, RowData>) groupAgg.getStateKeySelector(),
                (TypeInformation<RowData>) groupAgg.getStateKeyType(), inputType,
                ((InternalTypeInfo<RowData>) groupAgg.getOutputType()).toRowType(), spec);
    }

    /** One input event: a row with or without a timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    /**
     * A random insert-only stream over {@code inputType}: keys from a few values (NULL included),
     * values with NULLs and extremes (WindowAggHarnesses#value), most rows with a timestamp, and
     * a watermark now and then.
     */
    static List<Event> stream(RowType inputType, long seed, int rows) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                row.setField(f, WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f),
                        random));
            }
            out.add(new Event(binary.toBinaryRow(row).copy(), random.nextInt(10) == 0 ? null : 1_000L + i, null));
            if (random.nextInt(40) == 0) {
                out.add(new Event(null, null, 1_000L + i));
            }
        }
        return out;
    }

    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, List<Event> events)
            throws Exception {
        for (Event event : events) {
            feed(harness, event);
        }
    }

    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (event.row() == null) {
            harness.processWatermark(new Watermark(event.watermark()));
        } else if (event.timestamp() == null) {
            harness.processElement(new StreamRecord<>(event.row()));
        } else {
            harness.processElement(new StreamRecord<>(event.row(), event.timestamp()));
        }
    }
}
