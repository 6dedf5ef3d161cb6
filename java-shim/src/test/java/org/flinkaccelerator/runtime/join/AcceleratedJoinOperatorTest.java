package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.transformations.TwoInputTransformation;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.util.ExceptionUtils;
import org.flinkaccelerator.planner.AsyncStateOfThisLine;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.rules.AccelerateJoins;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.KeyedRowBatchOperator;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stock Flink's {@code StreamingJoinOperator} and the accelerated join, planned from the same SQL
 * (Nexmark q3's shape: an INNER equi-join of two insert-only inputs; q4/q9's time range and
 * arithmetic across the sides as non-equi conditions), on the same random
 * interleaved streams (rows repeating, many matches per key, NULL keys, strings of several lengths)
 * in Flink's keyed two-input harness on RocksDB and on the hashmap backend (there with hundreds of
 * distinct rows per key and rows sharing a bucket, so HashMap bins grow into trees): the output
 * sequences (kinds, timestamps, Flink's binary rows, their order, watermarks) must be equal, for
 * batches of one row, of a few and of thousands, checkpoint barriers at random points, and a
 * restore 1 -> 1 and after a rescale from 2 subtasks to 1 and 3; stock's state and another query's
 * are refused, and so is a backend other than the planned one.
 * The accelerated operator runs the descriptor the planner's export writes; the export keeps every
 * join it does not reproduce stock, with its reason.
 */
class AcceleratedJoinOperatorTest {

    @Test
    void sameOutputAsStockForBatchesOfEverySizeWithBarriersAndRestores() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY);
        assertSameOutputAsStock(planned, JoinHarnesses.stream(planned, 19, 500, 12), 2);
    }

    /**
     * A non-equi condition: stock's operator applies the condition the planner generated to each
     * (left row, right row) pair; ours runs the registry's export of it in the sidecar.
     */
    @ParameterizedTest
    @ValueSource(strings = {JoinHarnesses.BETWEEN, JoinHarnesses.ACROSS})
    void sameOutputAsStockWithANonEquiCondition(String query) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(query);
        assertSameOutputAsStock(planned, JoinHarnesses.stream(planned, 19, 500, 12), 1);
    }

    @Test
    void sameOutputAsStockOnTheHashMapBackendWithHotKeysAndTreeBins() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY, "hashmap");
        assertSameOutputAsStock(planned, JoinHarnesses.hotStream(planned, 23, 1600, 500, 40), 2);
    }

    /**
     * Snapshot pieces and restore calls of 2 KB: a hot key's hundreds of rows span pieces and calls,
     * and the restore gathers them into the key's HashMap sized for all of them, as a heap restore
     * does (accelerator/sidecar/restore_pieces.py); the output stays stock's, joined rows' order included.
     */
    @Test
    void hotKeysCutOverSnapshotPiecesAndRestoreCallsRestoreAsStockOnTheHashMapBackend() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY, "hashmap");
        List<JoinHarnesses.Event> events = JoinHarnesses.hotStream(planned, 29, 1600, 500, 40);
        List<Integer> barriers = List.of(300, 700);
        int cut = events.size() / 2;
        for (int[] run : new int[][] {{1, 1}, {2, 1}}) {
            List<AcceleratedJoinOperator> made = new ArrayList<>();
            List<String> small = planned.run(() -> {
                AcceleratedJoinOperator operator = planned.newAccelerated(100, 2048);
                made.add(operator);
                return operator;
            }, events, barriers, cut, run[0], run[1]);
            assertEquals(planned.run(planned::newStock, events, barriers, cut, run[0], run[1]), small,
                    run[0] + " -> " + run[1] + " subtasks");
            int calls = made.get(run[0]).restoreCalls();
            assertTrue(calls > 20, run[0] + " -> " + run[1] + " subtasks: " + calls + " restore calls");
        }
    }

    /**
     * Watermarks of both inputs after most rows, inputs going idle and active again (the operator's
     * status changing when both are idle), barriers at random points: the accelerated join holds
     * the combined watermark among its buffered rows and sends them before a status, so rows,
     * watermarks and statuses leave in stock's order, for an inner and an outer join, batches of
     * every size, restores and rescales.
     */
    @ParameterizedTest
    @ValueSource(strings = {" JOIN ", " FULL JOIN "})
    void watermarksAndStatusesOfBothInputsLeaveInStocksOrderAmongTheRows(String join) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY.replace(" JOIN ", join), "hashmap");
        List<JoinHarnesses.Event> events = JoinHarnesses.watermarkedStream(planned, 37, 600, 40, true);
        List<String> stock = planned.run(planned::newStock, events, List.of(), events.size() / 2, 1, 1);
        assertTrue(stock.stream().filter(l -> l.equals("WatermarkStatus(IDLE)")).count() > 1, stock.toString());
        assertTrue(stock.stream().filter(l -> l.startsWith("watermark")).count() > 100, stock.toString());
        assertSameOutputAsStock(planned, events, 1);
    }

    /**
     * A watermark of either input no longer sends the buffered rows: 600 rows with a watermark after
     * most of them go to the sidecar in one {@code update} at the end of the inputs (the counters
     * {@code updateBatches} and {@code updateRows}), every row whose key can join in it.
     */
    @Test
    void watermarksOfBothInputsNoLongerCutTheBatches() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY, "hashmap");
        List<JoinHarnesses.Event> events = JoinHarnesses.watermarkedStream(planned, 41, 600, 40, false);
        long watermarks = events.stream().filter(e -> e.row() == null).count();
        assertTrue(watermarks > 400, watermarks + " watermarks");
        long joinable = 0;
        for (JoinHarnesses.Event event : events) {
            if (event.row() != null && !((org.apache.flink.table.data.binary.BinaryRowData)
                    (event.left() ? planned.leftKeys() : planned.rightKeys()).getKey(event.row())).anyNull()) {
                joinable++;
            }
        }
        var metrics = planned.metricsAtEnd(planned.newAccelerated(10_000), events);
        assertEquals(1, ((Counter) metrics.get(KeyedRowBatchOperator.UPDATE_BATCHES)).getCount());
        assertEquals(joinable, ((Counter) metrics.get(KeyedRowBatchOperator.UPDATE_ROWS)).getCount());
    }

    /** @param joinedPerEvent stock must emit more joined rows than this many per event: the streams reach the order */
    static void assertSameOutputAsStock(JoinHarnesses.Planned planned, List<JoinHarnesses.Event> events,
            int joinedPerEvent) throws Exception {
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
            assertTrue(stock.size() > joinedPerEvent * events.size(), "joined rows " + stock.size());
            for (int batch : new int[] {1, 7, 10_000}) {
                assertEquals(stock, planned.run(() -> planned.newAccelerated(batch), events, barriers, cut, run[0],
                        run[1]), "batch " + batch + ", " + run[0] + " -> " + run[1] + " subtasks");
            }
        }
    }

    /**
     * State format 4 writes the rows without their fields and the operator reads them back from
     * the binary rows (JoinStateRows); frames with the fields, as format 3 wrote them (a descriptor of
     * state.format 3 still gets such snapshots from the stage), restore as written: both give stock's
     * output after restores 1 -> 1 and 2 -> 3, and format 4's checkpoint holds well under two thirds of
     * format 3's bytes for the same rows (the fields were about half of them).
     */
    @Test
    void rowsWrittenWithoutTheirFieldsAndWithThemRestoreAsStock() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.BETWEEN, "hashmap");
        JoinSpec spec = planned.spec();
        assertEquals(4, spec.descriptor().path("state").path("format").asInt());
        String format3 = spec.descriptorJson().replaceFirst("\"format\"\\s*:\\s*4", "\"format\": 3");
        assertTrue(!format3.equals(spec.descriptorJson()), spec.descriptorJson());
        JoinHarnesses.Planned withFields = new JoinHarnesses.Planned(planned.stock(), planned.leftKeys(),
                planned.rightKeys(), planned.keyType(), planned.leftType(), planned.rightType(), planned.outputType(),
                new JoinSpec(format3, spec.leftType(), spec.rightType(), spec.filterNullKeys(),
                        spec.pythonExecutable()),
                planned.backend());
        List<JoinHarnesses.Event> events = JoinHarnesses.stream(planned, 31, 400, 12);
        List<Integer> barriers = List.of(50, 150);
        int cut = events.size() / 2;
        for (int[] run : new int[][] {{1, 1}, {2, 3}}) {
            List<String> stock = planned.run(planned::newStock, events, barriers, cut, run[0], run[1]);
            assertEquals(stock, planned.run(() -> planned.newAccelerated(7), events, barriers, cut, run[0], run[1]),
                    "format 4, " + run[0] + " -> " + run[1] + " subtasks");
            assertEquals(stock, withFields.run(() -> withFields.newAccelerated(7), events, barriers, cut, run[0],
                    run[1]), "format 3, " + run[0] + " -> " + run[1] + " subtasks");
        }
        long without = planned.snapshotAfter(planned.newAccelerated(7), events).getStateSize();
        long with = withFields.snapshotAfter(withFields.newAccelerated(7), events).getStateSize();
        assertTrue(without < with * 2 / 3, "format 4 " + without + " bytes, format 3 " + with);
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
        String fingerprint = spec.descriptor().path("state").path("fingerprint").asText();
        AcceleratedJoinOperator otherQuery = new AcceleratedJoinOperator(new JoinSpec(
                spec.descriptorJson().replace(fingerprint, "cd".repeat(32)), spec.leftType(), spec.rightType(),
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
    void refusesToStartOnAnotherStateBackendThanPlannedNamingWhatToDo() throws Exception {
        JoinHarnesses.Planned rocksDb = JoinHarnesses.plan(JoinHarnesses.QUERY);
        JoinHarnesses.Planned hashMap = JoinHarnesses.plan(JoinHarnesses.QUERY, "hashmap");
        // The harness's default backend is the hashmap backend's heap one.
        var onHeap = new org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness<>(
                rocksDb.newAccelerated(10), rocksDb.leftKeys(), rocksDb.rightKeys(), rocksDb.keyType());
        String message = openFailure(onHeap);
        assertTrue(message.contains("state.backend.type: rocksdb") && message.contains("HeapKeyedStateBackend")
                && message.contains("accelerator.join.enabled"), message);
        var onRocksDb = new JoinHarnesses.Planned(hashMap.stock(), hashMap.leftKeys(), hashMap.rightKeys(),
                hashMap.keyType(), hashMap.leftType(), hashMap.rightType(), hashMap.outputType(), hashMap.spec(),
                "rocksdb").harness(hashMap.newAccelerated(10), 1, 0);
        message = openFailure(onRocksDb);
        assertTrue(message.contains("state.backend.type: hashmap") && message.contains("RocksDBKeyedStateBackend")
                && message.contains("accelerator.join.enabled"), message);
        // Each backend's state is its own: a restore on the other one is another query's.
        OperatorSubtaskState heapState = hashMap.snapshotAfter(hashMap.newAccelerated(10),
                JoinHarnesses.stream(hashMap, 7, 40, 12));
        assertTrue(restoreFailure(rocksDb, rocksDb.newAccelerated(10), heapState).contains("the query's join changed"));
    }

    private static String openFailure(AutoCloseable harness) throws Exception {
        try (harness) {
            Exception e = assertThrows(Exception.class, ((org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness<?>) harness)::open);
            return ExceptionUtils.findThrowable(e, IllegalStateException.class).orElseThrow().getMessage();
        }
    }

    @Test
    void theExportKeepsEachJoinItDoesNotReproduceStockWithItsReason() {
        String q3 = JoinHarnesses.QUERY;
        assertEquals(List.of(), JoinHarnesses.stockReasons(q3));
        // Every join type on both lines (1.20's outer order: planner/join/JoinLine).
        assertEquals(List.of(), JoinHarnesses.stockReasons(q3.replace(" JOIN ", " FULL JOIN ")));
        assertEquals(List.of(), JoinHarnesses.stockReasons(AcceleratedSemiAntiJoinOperatorTest.IN));
        assertEquals(List.of(), JoinHarnesses.stockReasons(AcceleratedSemiAntiJoinOperatorTest.NOT_EXISTS));
        assertEquals(List.of(), JoinHarnesses.stockReasons(q3 + " AND a.price > p.id"));
        assertEquals(List.of("join: join condition: REGEXP($1, $4): REGEXP, REGEXP_REPLACE, SIMILAR TO: Java regular"
                + " expressions differ from Rust's regex crate"),
                JoinHarnesses.stockReasons(q3 + " AND REGEXP(a.item, p.name)"));
        assertEquals(List.of(), JoinHarnesses.stockReasons(q3, "state.backend.type", "hashmap"));
        assertReason("'state.backend.type' is forst: stock's order of a key's joined rows is the state backend's",
                JoinHarnesses.stockReasons(q3, "state.backend.type", "forst"));
        assertReason("state TTL", JoinHarnesses.stockReasons(q3, "table.exec.state.ttl", "1 h"));
        assertReason("MiniBatchStreamingJoinOperator", JoinHarnesses.stockReasons(q3,
                "table.exec.mini-batch.enabled", "true", "table.exec.mini-batch.allow-latency", "1 s",
                "table.exec.mini-batch.size", "100"));
        // Flink 1.20 has no asynchronous SQL state (it ignores the option): the join runs accelerated there.
        List<String> async = JoinHarnesses.stockReasons(q3, "table.exec.async-state.enabled", "true");
        assertTrue(AsyncStateOfThisLine.EXISTS ? async.stream().anyMatch(r -> r.contains("asynchronous state"))
                : async.isEmpty(), async.toString());
        List<String> updating = JoinHarnesses.stockReasons("SELECT a.seller, a.c, p.name FROM (SELECT seller,"
                + " COUNT(*) AS c FROM auctions GROUP BY seller) AS a JOIN persons AS p ON a.seller = p.id");
        assertReason("the left input may carry updates: it is fed by GroupAggregate", updating);
        assertReason("the left input has unique keys [[seller]]", updating);
        assertEquals(2, updating.size(), updating.toString());
    }

    private static void assertReason(String expected, List<String> reasons) {
        assertTrue(reasons.stream().anyMatch(r -> r.contains(expected)), expected + " not in " + reasons);
    }

    @Test
    void withTheOptionThePlannerRunsTheJoinAsTheAcceleratedOperatorKeyedAsStock() throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY);
        SqlPlans plans = JoinHarnesses.plans("accelerator.join.enabled", "true");
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, JoinHarnesses.QUERY, List.of());
        AccelerationReport report = new AccelerationReport();
        new AccelerateJoins().apply(graph, plans.config(), report);
        assertEquals(List.of(JoinHarnesses.NAME), report.joins().stream()
                .filter(AccelerationReport.Join::accelerated).map(AccelerationReport.Join::name).toList());
        List<TwoInputTransformation<?, ?, ?>> joins = new ArrayList<>();
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof TwoInputTransformation<?, ?, ?> two) {
                joins.add(two);
            }
            pending.addAll(t.getInputs());
        }
        assertEquals(1, joins.size());
        TwoInputTransformation<?, ?, ?> join = joins.get(0);
        AcceleratedJoinOperator operator = (AcceleratedJoinOperator)
                ((SimpleOperatorFactory<?>) join.getOperatorFactory()).getOperator();
        assertEquals(planned.spec().descriptorJson(), operator.spec().descriptorJson());
        assertEquals(planned.keyType(), join.getStateKeyType());
        @SuppressWarnings("unchecked")
        KeySelector<RowData, RowData> left = (KeySelector<RowData, RowData>) join.getStateKeySelector1();
        @SuppressWarnings("unchecked")
        KeySelector<RowData, RowData> right = (KeySelector<RowData, RowData>) join.getStateKeySelector2();
        for (JoinHarnesses.Event event : JoinHarnesses.stream(planned, 3, 50, 12)) {
            if (event.row() != null) {
                assertEquals((event.left() ? planned.leftKeys() : planned.rightKeys()).getKey(event.row()),
                        (event.left() ? left : right).getKey(event.row()));
            }
        }
    }
}
