package org.flinkaccelerator.runtime.state;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Predicate;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.ExceptionUtils;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;

/**
 * A stock keyed operator ({@code KeyedProcessOperator} running a table function) as the planner
 * translates it for some SQL, with the key selector and types its transformation declares, for
 * running it and its accelerated counterpart in Flink's keyed operator harness.
 */
public record StockKeyedOperator(OneInputStreamOperator<RowData, RowData> stock,
        KeySelector<RowData, RowData> keySelector, TypeInformation<RowData> keyType, RowType inputType,
        RowType outputType) {
    /** The max parallelism of the harnesses' single-subtask runs. */
    public static final int MAX_PARALLELISM = 128;

    /** A fresh copy of the stock operator. */
    public OneInputStreamOperator<RowData, RowData> newStock() {
        try {
            return InstantiationUtil.clone(stock, StockKeyedOperator.class.getClassLoader());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A harness running {@code operator} as subtask {@code subtask} of {@code parallelism}, keyed as stock is. */
    public KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
            OneInputStreamOperator<RowData, RowData> operator, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, keySelector, keyType, maxParallelism,
                        parallelism, subtask);
        harness.setup(new RowDataSerializer(outputType));
        return harness;
    }

    /**
     * The output of {@code operator}, one subtask, fed {@code events} with a checkpoint (barrier and
     * snapshot) before each event whose index is in {@code barriers}, then the end of input.
     */
    public <E> List<String> outputOf(OneInputStreamOperator<RowData, RowData> operator, List<E> events,
            RescaledRun.Feed<E> feed, List<Integer> barriers) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            long checkpoint = 0;
            for (int i = 0; i < events.size(); i++) {
                if (barriers.contains(i)) {
                    harness.prepareSnapshotPreBarrier(++checkpoint);
                    harness.snapshot(checkpoint, checkpoint);
                }
                feed.feed(harness, events.get(i));
            }
            harness.endInput();
            return WindowAggHarnesses.output(harness, outputType);
        }
    }

    /** The snapshot (checkpoint 1) of {@code operator}, one subtask, after {@code events}. */
    public <E> OperatorSubtaskState snapshotAfter(OneInputStreamOperator<RowData, RowData> operator, List<E> events,
            RescaledRun.Feed<E> feed) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            for (E event : events) {
                feed.feed(harness, event);
            }
            harness.prepareSnapshotPreBarrier(1);
            return harness.snapshot(1, 1);
        }
    }

    /** The message of the {@code refusal} with which {@code operator} refuses to restore {@code state}. */
    public String restoreFailure(OneInputStreamOperator<RowData, RowData> operator, OperatorSubtaskState state,
            Class<? extends Throwable> refusal) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                harness(operator, MAX_PARALLELISM, 1, 0)) {
            Exception e = assertThrows(Exception.class, () -> {
                harness.initializeState(state);
                harness.open();
            });
            return ExceptionUtils.findThrowable(e, refusal)
                    .orElseThrow(() -> new AssertionError("not a " + refusal.getSimpleName(), e)).getMessage();
        }
    }

    /**
     * Plans {@code INSERT INTO results <select>}: results is an upsert-kafka table keyed by
     * {@code primaryKey} (its columns NOT NULL, as Flink's sink enforcer makes them), or a print
     * table taking the whole changelog when the key is empty.
     */
    public static ExecNodeGraph plan(SqlPlans plans, String select, List<String> primaryKey) {
        Schema.Builder schema = Schema.newBuilder();
        for (var column : plans.env().sqlQuery(select).getResolvedSchema().getColumns()) {
            schema.column(column.getName(), primaryKey.contains(column.getName()) ? column.getDataType().notNull()
                    : column.getDataType());
        }
        TableDescriptor results = primaryKey.isEmpty()
                ? TableDescriptor.forConnector("print").schema(schema.build()).build()
                : TableDescriptor.forConnector("upsert-kafka").schema(schema.primaryKey(primaryKey).build())
                        .option("topic", "results").option("properties.bootstrap.servers", "localhost:9092")
                        .option("key.format", "json").option("value.format", "json").build();
        plans.env().createTemporaryTable("results", results);
        return plans.plan("INSERT INTO results " + select + ";\n");
    }

    /**
     * The operator of {@code graph}'s translation whose function {@code function} accepts; fails
     * unless it reads {@code inputType} (the rows the export was made for).
     */
    public static StockKeyedOperator translated(SqlPlans plans, ExecNodeGraph graph, Predicate<Object> function,
            RowType inputType) {
        return translatedOperator(plans, graph, operator -> operator instanceof KeyedProcessOperator<?, ?, ?> keyed
                && function.test(keyed.getUserFunction()), inputType);
    }

    /**
     * The operator of {@code graph}'s translation that {@code operator} accepts (a table runtime
     * operator that is no {@code KeyedProcessOperator}, such as a group window's
     * {@code WindowOperator}); fails unless it reads {@code inputType}.
     */
    @SuppressWarnings("unchecked")
    public static StockKeyedOperator translatedOperator(SqlPlans plans, ExecNodeGraph graph,
            Predicate<Object> operator, RowType inputType) {
        OneInputTransformation<RowData, RowData> found = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof OneInputTransformation<?, ?> one
                    && one.getOperatorFactory() instanceof SimpleOperatorFactory<?> simple
                    && operator.test(simple.getOperator())) {
                found = (OneInputTransformation<RowData, RowData>) one;
            }
            pending.addAll(t.getInputs());
        }
        if (found == null) {
            throw new IllegalStateException("the translated plan has no such keyed operator");
        }
        RowType stockInput = ((InternalTypeInfo<RowData>) found.getInputType()).toRowType();
        if (!stockInput.equals(inputType)) {
            throw new IllegalStateException("the stock operator reads " + stockInput + ", the export " + inputType);
        }
        return new StockKeyedOperator((OneInputStreamOperator<RowData, RowData>)
                ((SimpleOperatorFactory<?>) found.getOperatorFactory()).getOperator(),
                (KeySelector<RowData, RowData>) found.getStateKeySelector(),
                (TypeInformation<RowData>) found.getStateKeyType(), inputType,
                ((InternalTypeInfo<RowData>) found.getOutputType()).toRowType());
    }
}
