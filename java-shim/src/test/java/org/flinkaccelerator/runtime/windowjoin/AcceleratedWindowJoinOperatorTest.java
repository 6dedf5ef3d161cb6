package org.flinkaccelerator.runtime.windowjoin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.util.ExceptionUtils;
import org.flinkaccelerator.runtime.join.JoinHarnesses;
import org.flinkaccelerator.runtime.state.RegisteredMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Stock Flink's {@code WindowJoinOperator} and the accelerated window join, planned from the same
 * SQL (a join of two 10-second TUMBLE window TVFs on a key and the window), on the same random
 * interleaved streams (rows out of order, some late for their window, NULL keys, many rows per key
 * and window) in Flink's keyed two-input harness: the output sequences (kinds, Flink's binary rows,
 * their order, watermarks) must be equal for INNER, LEFT, RIGHT, FULL, SEMI and ANTI joins and a
 * non-equi condition, for batches of one row, of a few and of thousands, checkpoint barriers at random
 * points, and a restore 1 -> 1 and after a rescale from 2 subtasks to 1 and 3; stock's state and
 * another query's are refused; stock's metrics are registered, the late rows counted per input as
 * stock counts them. The accelerated operator runs the descriptor the planner's export writes.
 */
class AcceleratedWindowJoinOperatorTest {

    @ParameterizedTest
    @CsvSource({"'', rocksdb", "LEFT, hashmap", "RIGHT, rocksdb", "FULL, hashmap"})
    void sameOutputAsStockForEveryJoinType(String type, String backend) throws Exception {
        WindowJoinHarnesses.Planned planned = WindowJoinHarnesses.plan(WindowJoinHarnesses.join(type, ""), backend);
        assertSameOutputAsStock(planned, WindowJoinHarnesses.stream(planned, 29, 600, 4, 6_000));
    }

    /** A SEMI join (IN) and an ANTI join (NOT EXISTS): left rows out, by whether their window has a match. */
    @ParameterizedTest
    @CsvSource({"false, rocksdb", "true, hashmap"})
    void sameOutputAsStockForSemiAndAntiJoins(boolean anti, String backend) throws Exception {
        WindowJoinHarnesses.Planned planned = WindowJoinHarnesses.plan(WindowJoinHarnesses.semiAnti(anti), backend);
        assertSameOutputAsStock(planned, WindowJoinHarnesses.stream(planned, 37, 600, 4, 6_000), 0.05);
    }

    /** A non-equi condition across the sides, on nullable fields of both (NULL rejects a pair as FALSE does). */
    @ParameterizedTest
    @CsvSource({"'', rocksdb", "FULL, hashmap"})
    void sameOutputAsStockWithANonEquiCondition(String type, String backend) throws Exception {
        WindowJoinHarnesses.Planned planned = WindowJoinHarnesses.plan(
                WindowJoinHarnesses.join(type, " AND (a.price > p.credit OR a.item < p.name)"), backend);
        assertSameOutputAsStock(planned, WindowJoinHarnesses.stream(planned, 31, 600, 4, 6_000));
    }

    static void assertSameOutputAsStock(WindowJoinHarnesses.Planned windowPlanned, List<JoinHarnesses.Event> events)
            throws Exception {
        assertSameOutputAsStock(windowPlanned, events, 1);
    }

    /** @param rowsPerEvent stock must emit more than this many rows per event: the streams reach the joins */
    static void assertSameOutputAsStock(WindowJoinHarnesses.Planned windowPlanned, List<JoinHarnesses.Event> events,
            double rowsPerEvent) throws Exception {
        JoinHarnesses.Planned planned = windowPlanned.planned();
        Random random = new Random(19);
        List<Integer> barriers = new ArrayList<>();
        for (int i = 0; i < events.size(); i += 1 + random.nextInt(120)) {
            barriers.add(i);
        }
        int cut = events.size() / 2;
        int[][] runs = {{1, 1}, {2, 1}, {2, 3}};
        for (int[] run : runs) {
            List<String> stock = planned.run(planned::newStock, events, barriers, cut, run[0], run[1]);
            // The streams reach what the test is about: many joined rows (each window of a key several).
            assertTrue(stock.size() > rowsPerEvent * events.size(), "joined rows " + stock.size());
            for (int batch : new int[] {1, 7, 10_000}) {
                assertEquals(stock, planned.run(() -> windowPlanned.newAccelerated(batch), events, barriers, cut,
                        run[0], run[1]), "batch " + batch + ", " + run[0] + " -> " + run[1] + " subtasks");
            }
        }
    }

    /** Stock's metrics, the late rows counted per input ({@code leftNumLateRecordsDropped}, ...) as stock's. */
    @Test
    void registersStocksMetricsAndCountsLateRowsPerInputAsStock() throws Exception {
        WindowJoinHarnesses.Planned planned = WindowJoinHarnesses.plan(WindowJoinHarnesses.join("", ""), "hashmap");
        List<JoinHarnesses.Event> events = WindowJoinHarnesses.stream(planned, 29, 600, 4, 6_000);
        Map<String, Metric> stock = planned.planned().metricsAfter(planned.planned().newStock(), events);
        for (String late : List.of("leftNumLateRecordsDropped", "rightNumLateRecordsDropped")) {
            assertTrue(stock.get(late) instanceof Counter counter && counter.getCount() > 0,
                    "stock drops late rows of each input: " + late + " in " + stock.keySet());
        }
        RegisteredMetrics.assertStocksMetrics(stock, planned.planned().metricsAfter(planned.newAccelerated(7), events));
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        WindowJoinHarnesses.Planned planned = WindowJoinHarnesses.plan(WindowJoinHarnesses.join("", ""), "rocksdb");
        List<JoinHarnesses.Event> events = WindowJoinHarnesses.stream(planned, 7, 60, 4, 6_000);
        events = events.subList(0, events.size() - 2);
        OperatorSubtaskState stock = planned.planned().snapshotAfter(planned.planned().newStock(), events);
        assertTrue(restoreFailure(planned, planned.newAccelerated(10), stock)
                .contains("restore it with accelerator.window-join.enabled: false"));
        OperatorSubtaskState ours = planned.planned().snapshotAfter(planned.newAccelerated(10), events);
        WindowJoinHarnesses.Planned other = WindowJoinHarnesses.plan(WindowJoinHarnesses.join("LEFT", ""), "rocksdb");
        assertTrue(restoreFailure(planned, other.newAccelerated(10), ours).contains("the query's window join changed"));
    }

    private static String restoreFailure(WindowJoinHarnesses.Planned planned, AcceleratedWindowJoinOperator operator,
            OperatorSubtaskState state) throws Exception {
        try (var harness = planned.planned().harness(operator, 1, 0)) {
            Exception e = assertThrows(Exception.class, () -> {
                harness.initializeState(state);
                harness.open();
            });
            return ExceptionUtils.stringifyException(e);
        }
    }
}
