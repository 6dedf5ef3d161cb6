package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.exchange.BatchParts;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The accelerated regular join reading batch records on one input or both (each record a run of
 * one input's rows as the join's {@code update} rows: key bytes and key group of Flink's key
 * selector, {@code $side}, the row's binary form {@code $order}, the joined row with the other
 * input's fields NULL, rows with a NULL key left out where the join never sends them) against
 * stock's {@code StreamingJoinOperator} fed the same rows one by one in the same order; the other
 * input keeps its rows. Its state carries across the paths: per-row at parallelism 1, checkpoint,
 * batched at 2, checkpoint, per-row at 3, each subtask's output stock's, in order.
 */
class AcceleratedJoinBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource({"' JOIN ', true, false, 13", "' JOIN ', true, true, 1", "' FULL JOIN ', false, true, 10000",
        "' LEFT JOIN ', true, true, 7"})
    void perRowThenBatchedThenPerRowGivesStocksOutput(String join, boolean leftBatched, boolean rightBatched,
            int rowsPerRecord) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY.replace(" JOIN ", join), "hashmap");
        boolean[] batched = {leftBatched, rightBatched};
        List<JoinHarnesses.Event> events = JoinHarnesses.watermarkedStream(planned, 43, 900, 40, false);
        int cut1 = events.size() / 3;
        int cut2 = 2 * events.size() / 3;
        List<List<JoinHarnesses.Event>> middle = deliveries(events.subList(cut1, cut2), batched, rowsPerRecord);
        List<String> stock = run(planned, planned::newStock, events, cut1, cut2, middle, new boolean[2]);
        assertTrue(stock.size() > events.size(), "joined rows " + stock.size());
        JoinSpec spec = batchedSpec(planned.spec(), batched);
        List<String> accelerated = run(planned, () -> planned.newAccelerated(10_000),  events, cut1, cut2, middle,
                batched, () -> new AcceleratedJoinOperator(spec));
        assertEquals(stock, accelerated);
    }

    /** The three runs' output, per subtask; the middle one's operators from {@code middleOperators}. */
    private static List<String> run(JoinHarnesses.Planned planned,
            java.util.function.Supplier<TwoInputStreamOperator<RowData, RowData, RowData>> operators,
            List<JoinHarnesses.Event> events, int cut1, int cut2, List<List<JoinHarnesses.Event>> middle,
            boolean[] batched) throws Exception {
        return run(planned, operators, events, cut1, cut2, middle, batched, operators);
    }

    private static List<String> run(JoinHarnesses.Planned planned,
            java.util.function.Supplier<? extends TwoInputStreamOperator<RowData, RowData, RowData>> operators,
            List<JoinHarnesses.Event> events, int cut1, int cut2, List<List<JoinHarnesses.Event>> middle,
            boolean[] batched, java.util.function.Supplier<? extends TwoInputStreamOperator<RowData, RowData, RowData>>
                    middleOperators) throws Exception {
        List<String> out = new ArrayList<>();
        OperatorSubtaskState[] first = stage(planned, operators, null, 1, 1, out, subtasks -> {
            for (JoinHarnesses.Event event : events.subList(0, cut1)) {
                planned.route(subtasks, event);
            }
        });
        OperatorSubtaskState[] second = stage(planned, middleOperators, first, 1, 2, out, subtasks -> {
            for (List<JoinHarnesses.Event> delivery : middle) {
                deliver(planned, subtasks, delivery, batched);
            }
        });
        stage(planned, operators, second, 2, 3, out, subtasks -> {
            for (JoinHarnesses.Event event : events.subList(cut2, events.size())) {
                planned.route(subtasks, event);
            }
            for (var harness : subtasks) {
                harness.endInput1();
                harness.endInput2();
            }
        });
        return out;
    }

    private interface Feed {
        void feed(List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> subtasks)
                throws Exception;
    }

    /** Runs {@code parallelism} subtasks restored from {@code state} (of {@code before} subtasks; null: none), adds their output, answers their snapshots. */
    private static OperatorSubtaskState[] stage(JoinHarnesses.Planned planned,
            java.util.function.Supplier<? extends TwoInputStreamOperator<RowData, RowData, RowData>> operators,
            OperatorSubtaskState[] state, int before, int parallelism, List<String> out, Feed feed) throws Exception {
        List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> subtasks = new ArrayList<>();
        OperatorSubtaskState[] snapshots = new OperatorSubtaskState[parallelism];
        try {
            OperatorSubtaskState merged = state == null ? null : AbstractStreamOperatorTestHarness.repackageState(state);
            for (int i = 0; i < parallelism; i++) {
                var harness = planned.harness(operators.get(), parallelism, i);
                subtasks.add(harness);
                if (merged != null) {
                    harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                            MAX_PARALLELISM, before, parallelism, i));
                }
                harness.open();
            }
            feed.feed(subtasks);
            for (int i = 0; i < parallelism; i++) {
                subtasks.get(i).prepareSnapshotPreBarrier(parallelism);
                snapshots[i] = subtasks.get(i).snapshot(parallelism, parallelism);
                out.add("subtask " + i + " of " + parallelism);
                out.addAll(WindowAggHarnesses.output(subtasks.get(i), planned.outputType()));
            }
        } finally {
            for (var harness : subtasks) {
                harness.close();
            }
        }
        return snapshots;
    }

    /**
     * {@code events} as they reach the join: a watermark, a row of an input read row by row, or a
     * run of at most {@code rowsPerRecord} rows of a batched input, which goes out when full or
     * before a watermark (the rows stage sends its rows before anything else leaves it); rows of
     * the other input arrive meanwhile.
     */
    private static List<List<JoinHarnesses.Event>> deliveries(List<JoinHarnesses.Event> events, boolean[] batched,
            int rowsPerRecord) {
        List<List<JoinHarnesses.Event>> out = new ArrayList<>();
        List<List<JoinHarnesses.Event>> pending = List.of(new ArrayList<>(), new ArrayList<>());
        for (JoinHarnesses.Event event : events) {
            int input = event.left() ? 0 : 1;
            if (event.row() == null) {
                for (List<JoinHarnesses.Event> run : pending) {
                    if (!run.isEmpty()) {
                        out.add(new ArrayList<>(run));
                        run.clear();
                    }
                }
                out.add(List.of(event));
            } else if (batched[input]) {
                pending.get(input).add(event);
                if (pending.get(input).size() == rowsPerRecord) {
                    out.add(new ArrayList<>(pending.get(input)));
                    pending.get(input).clear();
                }
            } else {
                out.add(List.of(event));
            }
        }
        for (List<JoinHarnesses.Event> run : pending) {
            if (!run.isEmpty()) {
                out.add(run);
            }
        }
        return out;
    }

    /** Hands a delivery to the subtasks: a batched input's run as one record per subtask, anything else as it is. */
    private static void deliver(JoinHarnesses.Planned planned,
            List<KeyedTwoInputStreamOperatorTestHarness<RowData, RowData, RowData, RowData>> subtasks,
            List<JoinHarnesses.Event> delivery, boolean[] batched) throws Exception {
        JoinHarnesses.Event first = delivery.get(0);
        int input = first.left() ? 0 : 1;
        if (first.row() == null || !batched[input]) {
            for (JoinHarnesses.Event event : delivery) {
                planned.route(subtasks, event);
            }
            return;
        }
        for (int subtask = 0; subtask < subtasks.size(); subtask++) {
            List<RowData> rows = updateRows(planned, delivery, input, subtasks.size(), subtask);
            if (rows.isEmpty()) {
                continue;
            }
            RowData record = ExchangeRecords.batchRecord(recordType(planned.spec()), rows);
            if (input == 0) {
                subtasks.get(subtask).processElement1(new StreamRecord<>(record));
            } else {
                subtasks.get(subtask).processElement2(new StreamRecord<>(record));
            }
        }
    }

    private static RowType recordType(JoinSpec spec) {
        List<RowType.RowField> fields = new ArrayList<>(spec.batchType().getFields());
        fields.add(new RowType.RowField(BatchParts.TIMESTAMP, new BigIntType(true)));
        return new RowType(fields);
    }

    /**
     * The update rows of {@code run} (rows of input {@code input}) for subtask {@code subtask}, as
     * the rows stage makes them: rows with a NULL where the join compares keys with {@code =} left
     * out unless stock emits the input's unmatched rows.
     */
    private static List<RowData> updateRows(JoinHarnesses.Planned planned, List<JoinHarnesses.Event> run, int input,
            int parallelism, int subtask) throws Exception {
        JoinSpec spec = planned.spec();
        RowType type = input == 0 ? planned.leftType() : planned.rightType();
        RowDataSerializer binary = new RowDataSerializer(type);
        boolean keepsNullKeys = input == 0 ? spec.leftEmitsUnmatched() : spec.rightEmitsUnmatched();
        int first = JoinSpec.TRANSPORT_COLUMNS + (input == 0 ? 0 : planned.leftType().getFieldCount());
        int arity = recordType(spec).getFieldCount();
        List<RowData> out = new ArrayList<>();
        for (JoinHarnesses.Event event : run) {
            BinaryRowData key = (BinaryRowData) (input == 0 ? planned.leftKeys() : planned.rightKeys())
                    .getKey(event.row());
            int group = KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM);
            if (KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(MAX_PARALLELISM, parallelism, group)
                    != subtask) {
                continue;
            }
            boolean nullFiltered = false;
            for (int k = 0; k < spec.filterNullKeys().length; k++) {
                nullFiltered |= spec.filterNullKeys()[k] && key.isNullAt(k);
            }
            if (nullFiltered && !keepsNullKeys) {
                continue;
            }
            BinaryRowData order = binary.toBinaryRow(event.row());
            GenericRowData row = new GenericRowData(arity);
            row.setField(0, BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes()));
            row.setField(1, group);
            row.setField(2, (byte) input);
            row.setField(3, BinarySegmentUtils.copyToBytes(order.getSegments(), order.getOffset(),
                    order.getSizeInBytes()));
            for (int f = 0; f < type.getFieldCount(); f++) {
                row.setField(first + f, FieldGetters.nullChecked(type.getTypeAt(f), f).getFieldOrNull(event.row()));
            }
            row.setField(arity - 1, event.timestamp());
            out.add(row);
        }
        return out;
    }

    /** {@code spec} reading batch records on the inputs {@code batched} names ({@code "exchange": {"left": "batched"}}). */
    static JoinSpec batchedSpec(JoinSpec spec, boolean[] batched) throws Exception {
        ObjectNode descriptor = (ObjectNode) JSON.readTree(spec.descriptorJson());
        ObjectNode exchange = descriptor.putObject("exchange");
        for (int input = 0; input < 2; input++) {
            if (batched[input]) {
                exchange.put(JoinSpec.INPUTS[input], "batched");
            }
        }
        return new JoinSpec(descriptor.toString(), spec.leftType(), spec.rightType(), spec.filterNullKeys(),
                spec.pythonExecutable());
    }
}
