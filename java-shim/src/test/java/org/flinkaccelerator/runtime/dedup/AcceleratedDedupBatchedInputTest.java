package org.flinkaccelerator.runtime.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.exchange.PathSwitchRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accelerated deduplication reading a batch exchange's records (each a run of rows as its
 * {@code update} rows, with the key bytes and key groups of Flink's key selector and each row's
 * record timestamp) against stock's deduplicate function fed the same rows one by one; and its
 * state across the two inputs: a checkpoint of the per-row operator restored into batched subtasks
 * at another parallelism and back, as a job switching the option between savepoints does.
 */
class AcceleratedDedupBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private static AcceleratedDedupOperator batched(DedupSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedDedupOperator(new DedupSpec(descriptor, spec.inputType(), spec.pythonExecutable()));
    }

    private static List<Object> records(DedupHarnesses.Planned planned, List<DedupHarnesses.Event> events,
            int parallelism, int subtask, int rowsPerRecord) throws Exception {
        return ExchangeRecords.records(planned.spec(), planned.stock().keySelector(), MAX_PARALLELISM,
                events.stream().map(e -> new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark())).toList(),
                parallelism, subtask, rowsPerRecord);
    }

    /** First row and last row on processing time, last row on event time (Nexmark q18's). */
    @ParameterizedTest
    @ValueSource(strings = {"pt ASC", "pt DESC", "ts DESC"})
    void sameOutputAsStockFromRecordsOfEverySize(String order) throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 5, 500, 40);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events, DedupHarnesses::feed,
                List.of());
        assertEquals(!order.equals("pt ASC"), stock.stream().anyMatch(l -> l.startsWith("-U")), "updates: " + stock);
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<String> batched = planned.stock().outputOf(batched(planned.spec()),
                    records(planned, events, 1, 0, rowsPerRecord), ExchangeRecords::feed, List.of());
            assertEquals(stock, batched, rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * are stock's, as a multiset.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pt ASC", "ts DESC"})
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism(String order) throws Exception {
        DedupHarnesses.Planned planned = DedupHarnesses.plan(DedupHarnesses.query(order), false);
        List<DedupHarnesses.Event> events = DedupHarnesses.stream(planned.stock().inputType(), 11, 600, 50);
        List<String> expected = PathSwitchRun.sortedRows(planned.stock().outputOf(planned.stock().newStock(), events,
                DedupHarnesses::feed, List.of()));
        assertEquals(expected, PathSwitchRun.rows(planned.stock(), planned.spec(), planned::newAccelerated,
                () -> batched(planned.spec()), events,
                e -> new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark()), DedupHarnesses::feed));
    }
}
