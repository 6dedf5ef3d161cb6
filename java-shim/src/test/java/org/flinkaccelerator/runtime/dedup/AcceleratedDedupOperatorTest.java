package org.flinkaccelerator.runtime.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.util.ExceptionUtils;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stock Flink's deduplicate functions ({@code ProcTimeDeduplicateKeepFirstRowFunction},
 * {@code ProcTimeDeduplicateKeepLastRowFunction}, {@code RowTimeDeduplicateFunction} keeping the last row) and the
 * accelerated deduplication, planned from the same SQL, on the same random insert-only streams
 * (drawn from a small pool of rows, so keys see rows equal to their kept one, and rowtimes tie) in
 * Flink's keyed operator harness: the output sequences (changelog kinds, timestamps, Flink's
 * binary rows, watermarks) must be equal, for batches of one row, of a few and of thousands,
 * checkpoint barriers at random points, and a restore after a rescale from 2 subtasks to 1 and 3.
 */
class AcceleratedDedupOperatorTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    /** (ORDER BY, upsert sink, options): every function and flag combination the export accelerates. */
    static Stream<Arguments> queries() {
        return Stream.of(Arguments.of("pt ASC", false, new String[0]),
                Arguments.of("pt DESC", false, new String[0]),
                Arguments.of("pt DESC", true, new String[0]),
                Arguments.of("pt DESC", true,
                        new String[] {"table.exec.deduplicate.insert-update-after-sensitive-enabled", "false"}),
                Arguments.of("ts DESC", false, new String[0]),
                Arguments.of("ts DESC", true, new String[0]),
                Arguments.of("ts DESC", true,
                        new String[] {"table.exec.deduplicate.insert-update-after-sensitive-enabled", "false"}));
    }

    private static List<String> run(DedupHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            List<DedupHarnesses.Event> events, List<Integer> barriers) throws Exception {
        return planned.stock().outputOf(operator, events, DedupHarnesses::feed, barriers);
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameOutputAsStockForBatchesOfEverySize(String order, boolean upsert, String[] options) throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), upsert, options);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 3, 500, 40);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, run(planned, planned.newAccelerated(batch), events, List.of()), "batch " + batch);
        }
        boolean last = order.endsWith("DESC");
        long rows = events.stream().filter(e -> e.row() != null).count();
        long emitted = stock.stream().filter(l -> l.startsWith("+")).count();
        // Asked for neither inserts nor update-befores, the processing-time last row keeps nothing and emits every row.
        boolean stateless = order.startsWith("pt DESC") && upsert && options.length > 0;
        assertTrue(stateless ? emitted == rows : emitted > 0 && emitted < rows, "rows emitted: " + emitted + " of "
                + rows);
        assertEquals(last, stock.stream().anyMatch(l -> l.startsWith("+U")), "updates");
        assertEquals(!upsert && !order.equals("pt ASC"), stock.stream().anyMatch(l -> l.startsWith("-U")),
                "update-befores only when the sink takes them");
    }

    @Test
    void barriersAtRandomPointsGiveStockOutput() throws Exception {
        for (String order : new String[] {"pt DESC", "ts DESC"}) {
            DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
            List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 5, 600, 60);
            List<Integer> barriers = BarrierPoints.random(events.size());
            assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                    run(planned, planned.newAccelerated(), events, barriers), order);
        }
    }

    private static List<String> rescaled(DedupHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<DedupHarnesses.Event> events, int cut,
            int before, int after) throws Exception {
        return new RescaledRun<DedupHarnesses.Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()), DedupHarnesses::feed,
                harness -> WindowAggHarnesses.output(harness, planned.stock().outputType()), MAX_PARALLELISM)
                .run(operators, events, cut, before, after, true);
    }

    @Test
    void restoreAndRescaleFromTwoToOneAndThreeGiveStockOutput() throws Exception {
        for (String order : new String[] {"pt ASC", "pt DESC", "ts DESC"}) {
            DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
            for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
                List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(),
                        11 + scale[0] * 10L + scale[1], 400, 50);
                int cut = events.size() / 2;
                List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
                assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                        order + ", " + scale[0] + " -> " + scale[1] + " subtasks");
                // After the cut, keys seen before it do not insert again: their state was restored.
                List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
                assertTrue(afterCut.stream().filter(l -> l.startsWith("+I")).count() < 5, "restored keys: " + afterCut);
            }
        }
    }

    /**
     * On RocksDB, the event-time last row (no duplicate check) gives stock's output; the
     * processing-time last row, whose duplicate check depends on the backend, refuses to start.
     */
    @Test
    void onRocksDbTheLastRowByEventTimeMatchesStockAndByProcessingTimeRefusesToStart() throws Exception {
        DedupHarnesses.Planned rowtime = DedupHarnesses.plan(DedupHarnesses.query("ts DESC"), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(rowtime.stock().inputType(), 9, 200, 30);
        assertEquals(runOnRocksDb(rowtime, rowtime.stock().newStock(), events),
                runOnRocksDb(rowtime, rowtime.newAccelerated(), events));
        DedupHarnesses.Planned proctime = DedupHarnesses.plan(DedupHarnesses.query("pt DESC"), false);
        List<DedupHarnesses.Event> proctimeEvents = DedupHarnesses.stream(proctime.stock().inputType(), 9, 20, 10);
        Exception refused = assertThrows(Exception.class, () -> runOnRocksDb(proctime, proctime.newAccelerated(),
                proctimeEvents));
        String message = ExceptionUtils.findThrowable(refused, IllegalStateException.class)
                .orElseThrow(() -> new AssertionError("not refused", refused)).getMessage();
        assertTrue(message.contains("hashmap state backend only") && message.contains("RocksDB"), message);
    }

    private static List<String> runOnRocksDb(DedupHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<DedupHarnesses.Event> events) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, planned.stock().keySelector(),
                        planned.stock().keyType(), MAX_PARALLELISM, 1, 0)) {
            // The backend is set before setup, which fixes the harness's configuration.
            WindowAggHarnesses.Backend.ROCKSDB.apply(harness);
            harness.setup(new RowDataSerializer(planned.stock().outputType()));
            harness.open();
            for (DedupHarnesses.Event event : events) {
                DedupHarnesses.feed(harness, event);
            }
            harness.endInput();
            return WindowAggHarnesses.output(harness, planned.stock().outputType());
        }
    }

    @Test
    void aRowWaitsNoLongerThanTheMaxDelay() throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query("pt ASC"), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 4, 3, 3);
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.stock().harness(planned.newAccelerated(), MAX_PARALLELISM, 1, 0)) {
            harness.open();
            harness.setProcessingTime(0);
            DedupHarnesses.feed(harness, events.get(0));
            assertEquals(0, harness.getOutput().size(), "the row waits in its batch");
            harness.setProcessingTime(planned.spec().maxDelay().toMillis());
            assertEquals(1, harness.getOutput().size(), "sent once the max delay passed");
        }
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query("ts DESC"), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 3, 100, 20);
        OperatorSubtaskState stock = planned.stock().snapshotAfter(planned.stock().newStock(), events, DedupHarnesses::feed);
        String fromStock = planned.stock().restoreFailure(planned.newAccelerated(), stock, DedupStateException.class);
        assertTrue(fromStock.contains("written by stock Flink's deduplication")
                && fromStock.contains("accelerator.deduplicate.enabled: false"), fromStock);
        DedupHarnesses.Planned other = DedupHarnesses.plan(DedupHarnesses.query("pt DESC"), false);
        OperatorSubtaskState ours = planned.stock().snapshotAfter(planned.newAccelerated(), events, DedupHarnesses::feed);
        String fromOther = other.stock().restoreFailure(other.newAccelerated(), ours, DedupStateException.class);
        assertTrue(fromOther.contains("the query's deduplication changed"), fromOther);
    }
}
