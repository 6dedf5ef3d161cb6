package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.exchange.PathSwitchRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The accelerated window aggregate reading a batch exchange's records (each a run of rows as its
 * {@code update} rows: Flink's key bytes and key groups, the rowtime's millisecond or the local
 * phase's slice end, the arguments or partial accumulators) against stock's {@code WindowAggOperator}
 * fed the same rows one by one, in one phase and in the global phase, with the timers in the
 * sidecar's queue and on Flink's timer service (where rows arriving after their slice fired register
 * timers on arrival): the output in order, byte for byte, and the late rows; and its state across the
 * two inputs: a checkpoint of the per-row operator restored into batched subtasks at another
 * parallelism and back, as a job switching the option between savepoints does.
 */
class AcceleratedWindowAggBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    /** TUMBLE, HOP of five slices and CUMULATE, in one phase and in two (the global phase reading partials). */
    static Stream<Arguments> windowsAndPhases() {
        List<Arguments> out = new ArrayList<>();
        for (String window : new String[] {AcceleratedWindowAggOperatorTest.TUMBLE, AcceleratedWindowAggOperatorTest.WINDOWS[2],
                AcceleratedWindowAggOperatorTest.CUMULATE}) {
            out.add(Arguments.of(window, true));
            out.add(Arguments.of(window, false));
        }
        return out.stream();
    }

    private static WindowAggHarnesses.Planned plan(String window, boolean onePhase) throws Exception {
        String query = AcceleratedWindowAggOperatorTest.allFunctions(window);
        return onePhase ? WindowAggHarnesses.plan(query, AcceleratedWindowAggOperatorTest.ONE_PHASE)
                : WindowAggHarnesses.plan(query);
    }

    private static WindowAggSpec batchedSpec(WindowAggSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new WindowAggSpec(descriptor, spec.inputType(), spec.timeIndex(), spec.pythonExecutable());
    }

    /** A row's batch columns as the rows stage writes them: {@code $time}, then the arguments or partials. */
    private static ExchangeRecords.BatchColumns columns(WindowAggSpec spec) {
        int[] arguments = spec.argumentIndexes();
        boolean global = WindowAggSpec.GLOBAL.equals(spec.phase());
        LogicalType timeType = spec.inputType().getTypeAt(spec.timeIndex());
        return row -> {
            Object[] values = new Object[1 + arguments.length];
            values[0] = global ? row.getLong(spec.timeIndex())
                    : row.getTimestamp(spec.timeIndex(), LogicalTypeChecks.getPrecision(timeType)).getMillisecond();
            for (int i = 0; i < arguments.length; i++) {
                LogicalType type = spec.inputType().getTypeAt(arguments[i]);
                values[1 + i] = RowData.createFieldGetter(type, arguments[i]).getFieldOrNull(row);
            }
            return values;
        };
    }

    private static ExchangeRecords.Input input(WindowAggHarnesses.Event event) {
        return event instanceof WindowAggHarnesses.Row row ? new ExchangeRecords.Input(row.row(), null, null)
                : new ExchangeRecords.Input(null, null, ((WindowAggHarnesses.Mark) event).watermark());
    }

    private static List<String> runRecords(WindowAggHarnesses.Planned planned, AcceleratedWindowAggOperator operator,
            List<Object> records) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            for (Object record : records) {
                ExchangeRecords.feed(harness, record);
            }
            List<String> out = new ArrayList<>(WindowAggHarnesses.output(harness, planned.outputType()));
            out.add("numLateRecordsDropped " + WindowAggHarnesses.dropped(operator));
            return out;
        }
    }

    @ParameterizedTest
    @MethodSource("windowsAndPhases")
    void sameOutputAndLateRowsAsStockFromRecordsOfEverySize(String window, boolean onePhase) throws Exception {
        WindowAggHarnesses.Planned planned = plan(window, onePhase);
        WindowAggSpec spec = planned.spec();
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), spec.timeIndex(), 7,
                1500, AcceleratedWindowAggOperatorTest.SIZE, spec.slideMillis());
        List<String> stock = AcceleratedWindowAggOperatorTest.run(planned, planned.newStock(), events);
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
        assertTrue(!stock.get(stock.size() - 1).equals("numLateRecordsDropped 0"), "the stream has late rows");
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<Object> records = ExchangeRecords.records(spec.batchType(), columns(spec), planned.keySelector(),
                    MAX_PARALLELISM, events.stream().map(AcceleratedWindowAggBatchedInputTest::input).toList(), 1, 0,
                    rowsPerRecord);
            assertEquals(stock, runRecords(planned, new AcceleratedWindowAggOperator(batchedSpec(spec)), records),
                    rowsPerRecord + " rows per record, timers in the sidecar's queue");
            assertEquals(stock, runRecords(planned, new AcceleratedWindowAggOperator(batchedSpec(spec)).onFlinkTimers(),
                    records), rowsPerRecord + " rows per record, timers on Flink's timer service");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * are stock's, as a multiset.
     */
    @ParameterizedTest
    @MethodSource("windowsAndPhases")
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism(String window, boolean onePhase) throws Exception {
        WindowAggHarnesses.Planned planned = plan(window, onePhase);
        WindowAggSpec spec = planned.spec();
        StockKeyedOperator stock = new StockKeyedOperator(planned.stock(), planned.keySelector(), planned.keyType(),
                planned.inputType(), planned.outputType());
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), spec.timeIndex(), 11,
                1200, AcceleratedWindowAggOperatorTest.SIZE, spec.slideMillis());
        List<String> expected = PathSwitchRun.sortedRows(stock.outputOf(planned.newStock(), events,
                WindowAggHarnesses::feed, List.of()));
        assertTrue(expected.size() > 20, "windows fire: " + expected.size());
        assertEquals(expected, PathSwitchRun.rows(stock, spec.batchType(), columns(spec), planned::newAccelerated,
                () -> new AcceleratedWindowAggOperator(batchedSpec(spec)), events,
                AcceleratedWindowAggBatchedInputTest::input, WindowAggHarnesses::feed));
    }
}
