package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;

/**
 * Stock Flink's {@code StreamingJoinOperator} and the accelerated join, planned from the same SQL
 * (Nexmark q3's shape: an INNER equi-join of two insert-only inputs), on the same random
 * interleaved streams (rows repeating, many matches per key, NULL keys, strings of several lengths)
 * in Flink's keyed two-input harness on RocksDB: the output sequences (kinds, timestamps, Flink's
 * binary rows, their order, watermarks) must be equal, for batches of one row, of a few and of
 * thousands, checkpoint barriers at random points, and a restore 1 -> 1 and after a rescale from 2
 * subtasks to 1 and 3; stock's state and another query's are refused, and so is another backend.
 */
class AcceleratedJoinOperatorTest {

    @Test
    void sameOutputAsStockForBatchesOfEverySizeWithBarriersAndRestores() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY);
        List<JoinHarnesses.Event> events = JoinHarnesses.stream(planned, 19, 500, 12);
        Random random = new Random(19);
        List<Integer> barriers = new ArrayList<>();
        for (int i = 0; i < events.size(); i += 1 + random.nextInt(120)) {
            barriers.add(i);
        }
        int cut = events.size() / 2;
        int[][] runs = {{1, 1}, {2, 1}, {2, 3}};
        for (int[] run : runs) {
            List<String> stock = planned.run(planned::newStock, events, barriers, cut, run[0], run[1]);
            // The streams reach what the order is about: a row joining several rows, and a row joining a repeated one.
            assertTrue(stock.size() > 2 * events.size(), "joined rows " + stock.size());
            for (int batch : new int[] {1, 7, 10_000}) {
                assertEquals(stock, planned.run(() -> planned.newAccelerated(batch), events, barriers, cut, run[0],
                        run[1]), "batch " + batch + ", " + run[0] + " -> " + run[1] + " subtasks");
            }
        }
    }

    @Test
    void stockStateAndStateOfAnotherQueryAreRefusedNamingWhatToDo() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY);
        List<JoinHarnesses.Event> events = JoinHarnesses.stream(planned, 7, 40, 12);
        OperatorSubtaskState stock = planned.snapshotAfter(planned.newStock(), events);
        assertTrue(restoreFailure(planned, planned.newAccelerated(10), stock)
                .contains("restore it with accelerator.join.enabled: false"));
        OperatorSubtaskState ours = planned.snapshotAfter(planned.newAccelerated(10), events);
        JoinSpec spec = planned.spec();
        AcceleratedJoinOperator otherQuery = new AcceleratedJoinOperator(new JoinSpec(
                spec.descriptorJson().replace("ab".repeat(32), "cd".repeat(32)), spec.leftType(), spec.rightType(),
                spec.filterNullKeys(), spec.pythonExecutable()));
        assertTrue(restoreFailure(planned, otherQuery, ours).contains("the query's join changed"));
    }

    private static String restoreFailure(JoinHarnesses.Planned planned, AcceleratedJoinOperator operator,
            OperatorSubtaskState state) throws Exception {
        try (var harness = planned.harness(operator, 1, 0)) {
            Exception e = assertThrows(Exception.class, () -> {
                harness.initializeState(state);
                harness.open();
            });
            return ExceptionUtils.findThrowable(e, JoinStateException.class)
                    .orElseThrow(() -> new AssertionError("not a JoinStateException", e)).getMessage();
        }
    }

    @Test
    void refusesToStartOnAnotherStateBackendNamingWhatToDo() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY);
        var harness = new org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness<>(
                planned.newAccelerated(10), planned.leftKeys(), planned.rightKeys(), planned.keyType());
        try (harness) {
            Exception e = assertThrows(Exception.class, harness::open);
            String message = ExceptionUtils.findThrowable(e, IllegalStateException.class).orElseThrow().getMessage();
            assertTrue(message.contains("state.backend.type: rocksdb") && message.contains("accelerator.join.enabled"),
                    message);
        }
    }
}
