package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.flinkaccelerator.runtime.exchange.ExchangeRecords;
import org.flinkaccelerator.runtime.exchange.PathSwitchRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;

/**
 * The accelerated group aggregate reading a batch exchange's records (each a run of rows as its
 * {@code update} rows, with the key bytes and key groups of Flink's key selector and each row's
 * timestamp) against stock's {@code GroupAggFunction} fed the same rows one by one; and its state
 * across the two inputs: a checkpoint of the per-row operator restored into batched subtasks at
 * another parallelism and back, as a job switching the option between savepoints does.
 */
class AcceleratedGroupAggBatchedInputTest {
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;
    /** Keys of the types a batch exchange takes: a string (inline and long) and an INT, NULLs among them. */
    private static final String QUERY = "SELECT k1, k2, COUNT(*) AS n, SUM(a) AS sa, MIN(b) AS mib, MAX(a) AS maa,"
            + " AVG(a) AS aa, COUNT(*) FILTER (WHERE b > 0) AS np FROM bids GROUP BY k1, k2";

    private static GroupAggHarnesses.Planned plan() throws Exception {
        return GroupAggHarnesses.plan(QUERY, GroupAggHarnesses.Sink.RETRACT, "");
    }

    private static AcceleratedGroupAggOperator batched(GroupAggSpec spec) {
        String descriptor = spec.descriptorJson().replaceFirst("\\{", "{\"exchange\": \"batched\", ");
        return new AcceleratedGroupAggOperator(new GroupAggSpec(descriptor, spec.inputType(), spec.pythonExecutable()));
    }

    /** The records a batch exchange delivers to subtask {@code subtask} of {@code parallelism} for {@code events}. */
    private static List<Object> records(GroupAggHarnesses.Planned planned, List<GroupAggHarnesses.Event> events,
            int parallelism, int subtask, int rowsPerRecord) throws Exception {
        return ExchangeRecords.records(planned.spec(), planned.stock().keySelector(), MAX_PARALLELISM,
                events.stream().map(e -> new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark())).toList(),
                parallelism, subtask, rowsPerRecord);
    }

    @Test
    void sameOutputAsStockFromRecordsOfEverySize() throws Exception {
        GroupAggHarnesses.Planned planned = plan();
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 5, 500);
        List<String> stock = planned.stock().outputOf(planned.stock().newStock(), events, GroupAggHarnesses::feed,
                List.of());
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("-U")), "updates: " + stock);
        for (int rowsPerRecord : new int[] {1, 13, 10_000}) {
            List<String> batched = planned.stock().outputOf(batched(planned.spec()),
                    records(planned, events, 1, 0, rowsPerRecord), ExchangeRecords::feed,
                    List.of());
            assertEquals(stock, batched, rowsPerRecord + " rows per record");
        }
    }

    /**
     * Per-row at parallelism 1, checkpoint, batched at 2, checkpoint, per-row at 3: the output rows
     * are stock's, as a multiset.
     */
    @Test
    void stateCarriesAcrossBatchedAndPerRowInputAtAnotherParallelism() throws Exception {
        GroupAggHarnesses.Planned planned = plan();
        List<GroupAggHarnesses.Event> events = GroupAggHarnesses.stream(planned.stock().inputType(), 11, 600);
        List<String> expected = PathSwitchRun.sortedRows(planned.stock().outputOf(planned.stock().newStock(), events,
                GroupAggHarnesses::feed, List.of()));
        assertEquals(expected, PathSwitchRun.rows(planned.stock(), planned.spec(), planned::newAccelerated,
                () -> batched(planned.spec()), events,
                e -> new ExchangeRecords.Input(e.row(), e.timestamp(), e.watermark()), GroupAggHarnesses::feed));
    }
}
