package org.flinkaccelerator.runtime.rank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.exchange.PathSwitchRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accelerated Top-N reading a batch exchange's records (each a run of rows as its {@code
 * update} rows, with the key bytes and key groups of Flink's key selector and each row's record
 * timestamp) against stock's {@code AppendOnlyTopNFunction} fed the same rows one by one; and its
 * state across the two inputs at other parallelisms.
 */
class AcceleratedRankBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    private static AcceleratedRankOperator batched(RankSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedRankOperator(new RankSpec(descriptor, spec.inputType(), spec.pythonExecutable()));
    }

    private static ExchangeRecords.Input input(RankHarnesses.Event e) {
        return new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark());
    }

    /** With and without the row number (Nexmark q19 selects it). */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void sameOutputAsStockFromRecordsOfEverySize(boolean rowNumber) throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC, s ASC", 3, rowNumber),
                List.of());
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 5, 600, 60);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events, RankHarnesses::feed,
                List.of());
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("-")), "rows leave the top: " + stock);
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<String> batched = planned.stock().outputOf(batched(planned.spec()),
                    ExchangeRecords.records(planned.spec(), planned.stock().keySelector(), MAX_PARALLELISM,
                            events.stream().map(AcceleratedRankBatchedInputTest::input).toList(), 1, 0,
                            rowsPerRecord),
                    ExchangeRecords::feed, List.of());
            assertEquals(stock, batched, rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * are stock's, as a multiset.
     */
    @Test
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism() throws Exception {
        RankHarnesses.Planned planned = RankHarnesses.plan(RankHarnesses.query("a DESC", 3, true), List.of());
        List<RankHarnesses.Event> events = RankHarnesses.stream(planned.stock().inputType(), 11, 600, 60);
        List<String> expected = PathSwitchRun.sortedRows(planned.stock().outputOf(planned.stock().newStock(), events,
                RankHarnesses::feed, List.of()));
        assertEquals(expected, PathSwitchRun.rows(planned.stock(), planned.spec(), planned::newAccelerated,
                () -> batched(planned.spec()), events, AcceleratedRankBatchedInputTest::input, RankHarnesses::feed));
    }
}
