package org.flinkaccelerator.runtime.groupwindow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LogicalType;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.exchange.PathSwitchRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accelerated event-time group window aggregate reading a batch exchange's records (each a run
 * of rows as its {@code update} rows: Flink's key bytes and key groups, the rowtime's millisecond,
 * the arguments) against stock's {@code WindowOperator} fed the same rows one by one, late rows and
 * merging sessions included; and its state across the two inputs: a checkpoint of the per-row
 * operator restored into batched subtasks at another parallelism and back, as a job switching the
 * option between savepoints does. Over processing time, a record's rows arrived together: stock gets
 * them one by one at the processing time at which the record arrives.
 */
class AcceleratedGroupWindowBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private static AcceleratedGroupWindowOperator batched(GroupWindowSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedGroupWindowOperator(new GroupWindowSpec(descriptor, spec.inputType(),
                spec.rowtimeIndex(), spec.pythonExecutable()));
    }

    /** A row's batch columns as the rows stage writes them: the rowtime's epoch millisecond, then the arguments. */
    private static ExchangeRecords.BatchColumns columns(GroupWindowSpec spec) {
        int[] arguments = spec.argumentIndexes();
        return row -> {
            Object[] values = new Object[1 + arguments.length];
            values[0] = row.getTimestamp(spec.rowtimeIndex(), 3).getMillisecond();
            for (int i = 0; i < arguments.length; i++) {
                LogicalType type = spec.inputType().getTypeAt(arguments[i]);
                values[1 + i] = RowData.createFieldGetter(type, arguments[i]).getFieldOrNull(row);
            }
            return values;
        };
    }

    private static ExchangeRecords.Input input(GroupWindowHarnesses.Event event) {
        return new ExchangeRecords.Input(event.row(), event.timestamp(), event.watermark());
    }

    @ParameterizedTest
    @ValueSource(strings = {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP, GroupWindowHarnesses.SESSION})
    void sameOutputAndLateRowsAsStockFromRecordsOfEverySize(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 5, 1_500);
        OneInputStreamOperator<RowData, RowData> stockOperator = planned.stock().newStock();
        List<String> stock = planned.stock().outputOf(stockOperator, events, GroupWindowHarnesses::feed, List.of());
        long late = GroupWindowHarnesses.stockLateRows(stockOperator);
        assertTrue(late > 10, window + ": " + late + " late rows");
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 100, window + ": " + stock.size());
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            AcceleratedGroupWindowOperator accelerated = batched(planned.spec());
            List<Object> records = ExchangeRecords.records(planned.spec().batchType(), columns(planned.spec()),
                    planned.stock().keySelector(), MAX_PARALLELISM,
                    events.stream().map(AcceleratedGroupWindowBatchedInputTest::input).toList(), 1, 0, rowsPerRecord);
            assertEquals(stock, planned.stock().outputOf(accelerated, records, ExchangeRecords::feed, List.of()),
                    window + ", " + rowsPerRecord + " rows per record");
            assertEquals(late, accelerated.getNumLateRecordsDropped().getCount(), "numLateRecordsDropped, "
                    + rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * are stock's, as a multiset.
     */
    @ParameterizedTest
    @ValueSource(strings = {GroupWindowHarnesses.HOP, GroupWindowHarnesses.SESSION})
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(GroupWindowHarnesses.query(window));
        List<GroupWindowHarnesses.Event> events = GroupWindowHarnesses.stream(planned.stock().inputType(), 11, 1_200);
        List<String> expected = PathSwitchRun.sortedRows(planned.stock().outputOf(planned.stock().newStock(), events,
                GroupWindowHarnesses::feed, List.of()));
        assertEquals(expected, PathSwitchRun.rows(planned.stock(), planned.spec().batchType(), columns(planned.spec()),
                planned::newAccelerated, () -> batched(planned.spec()), events,
                AcceleratedGroupWindowBatchedInputTest::input, GroupWindowHarnesses::feed));
    }

    /** A processing-time window's batch columns: {@code $time} left at 0 (the operator stamps it), then the arguments. */
    private static ExchangeRecords.BatchColumns arrivalColumns(GroupWindowSpec spec) {
        int[] arguments = spec.argumentIndexes();
        return row -> {
            Object[] values = new Object[1 + arguments.length];
            values[0] = 0L;
            for (int i = 0; i < arguments.length; i++) {
                LogicalType type = spec.inputType().getTypeAt(arguments[i]);
                values[1 + i] = RowData.createFieldGetter(type, arguments[i]).getFieldOrNull(row);
            }
            return values;
        };
    }

    /** A batch record arriving at processing time {@code time}, or (record null) the clock moving or a watermark. */
    private record Arrival(Object record, long time, Long watermark) {}

    /** {@code events} as batch records: each run of rows arriving at one processing time is one record. */
    private static List<Arrival> arrivals(GroupWindowHarnesses.Planned planned, List<ProcessingTimeGroupWindowTest.Event> events)
            throws Exception {
        List<Arrival> out = new ArrayList<>();
        List<ExchangeRecords.Input> run = new ArrayList<>();
        long runTime = Long.MIN_VALUE;
        for (ProcessingTimeGroupWindowTest.Event event : events) {
            if (event.row() != null && (run.isEmpty() || event.time() == runTime)) {
                run.add(new ExchangeRecords.Input(event.row(), null, null));
                runTime = event.time();
                continue;
            }
            flushRun(planned, run, runTime, out);
            if (event.row() != null) {
                run.add(new ExchangeRecords.Input(event.row(), null, null));
                runTime = event.time();
            } else {
                out.add(new Arrival(null, event.time(), event.watermark()));
            }
        }
        flushRun(planned, run, runTime, out);
        return out;
    }

    private static void flushRun(GroupWindowHarnesses.Planned planned, List<ExchangeRecords.Input> run, long time,
            List<Arrival> out) throws Exception {
        if (run.isEmpty()) {
            return;
        }
        for (Object record : ExchangeRecords.records(planned.spec().batchType(), arrivalColumns(planned.spec()),
                planned.stock().keySelector(), MAX_PARALLELISM, run, 1, 0, Integer.MAX_VALUE)) {
            out.add(new Arrival(record, time, null));
        }
        run.clear();
    }

    private static void feedArrival(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness,
            Arrival arrival) throws Exception {
        if (harness.getProcessingTime() < arrival.time()) {
            harness.setProcessingTime(arrival.time());
        }
        if (arrival.record() != null) {
            ExchangeRecords.feed(harness, arrival.record());
        } else if (arrival.watermark() != null) {
            harness.processWatermark(new Watermark(arrival.watermark()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ProcessingTimeGroupWindowTest.TUMBLE, ProcessingTimeGroupWindowTest.HOP})
    void processingTimeRecordsGetTheTimeTheyArriveAtAsStocksRowsDo(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(ProcessingTimeGroupWindowTest.query(window));
        List<ProcessingTimeGroupWindowTest.Event> events = ProcessingTimeGroupWindowTest.stream(
                planned.stock().inputType(), 9, 2_000);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events,
                ProcessingTimeGroupWindowTest::feed, List.of());
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 300, window + ": " + stock.size());
        List<Arrival> arrivals = arrivals(planned, events);
        assertTrue(arrivals.size() < events.size() * 9 / 10, "records of several rows: " + arrivals.size());
        assertEquals(stock, planned.stock().outputOf(batched(planned.spec()), arrivals,
                AcceleratedGroupWindowBatchedInputTest::feedArrival, List.of()), window);
    }
}
