package org.flinkaccelerator.planner.windowagg;

import static org.flinkaccelerator.planner.windowagg.WindowAggPlans.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowAggregate;
import org.flinkaccelerator.planner.AsyncStateOfThisLine;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.junit.jupiter.api.Test;

/**
 * Every reason a window aggregate stays stock (docs/design/stateful-window-aggregate.md, §2), on
 * real plans, with the exact line the acceleration report shows.
 */
class WindowAggFallbackTest {
    private static final String TUMBLE_10S = WindowAggExportTest.TUMBLE_10S;
    private static final String BY_AUCTION = WindowAggExportTest.BY_AUCTION;
    private static final String COLUMNS = "auction, window_start, window_end, COUNT(*)";

    private static List<String> reasons(WindowAggExport export) {
        assertFalse(export.accelerated(), () -> "expected stock, got " + export.toJson());
        assertNull(export.fingerprint());
        return export.fallback().stream().map(FallbackReason::toString).toList();
    }

    private static List<String> reasons(WindowAggPlans plans, String columns, String window, String groupBy) {
        return reasons(plans.export(query(columns, window, groupBy)));
    }

    private static List<String> reasons(String columns, String window, String groupBy) {
        return reasons(new WindowAggPlans(), columns, window, groupBy);
    }

    @Test
    void hopWhoseSizeIsNoMultipleOfTheSlide() {
        assertEquals(List.of("window: the HOP window's size 10000 ms is no multiple of its slide 3000 ms; stock Flink's"
                + " slicing refuses such a window"), reasons(COLUMNS,
                "HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '3' SECOND, INTERVAL '10' SECOND)", BY_AUCTION));
    }

    @Test
    void cumulateWhoseStepIsItsMaxSize() {
        assertEquals(List.of("window: the CUMULATE window's step is its max size (10000 ms): stock Flink never clears"
                + " such a window's one slice (CumulativeSliceAssigner.expiredSlices keeps a first slice), so its state"
                + " grows with every window, which the accelerated operator (its state in memory under a budget) is not"
                + " built for; TUMBLE gives the same windows"), reasons(COLUMNS,
                "CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND, INTERVAL '10' SECOND)", BY_AUCTION));
    }

    @Test
    void cumulateWithStepsNotAlignedToTheEpoch() {
        assertEquals(List.of("window: the window ends are not aligned to the epoch (offset 1000 ms minus zone offset 0"
                + " ms is no multiple of the step 5000 ms): stock Flink fires such windows late or loses them, which is"
                + " not reproduced"), reasons(COLUMNS,
                "CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '20' SECOND, INTERVAL '1' SECOND)",
                BY_AUCTION));
    }

    @Test
    void session() {
        assertEquals(List.of("window: SESSION windows are not accelerated; only TUMBLE, HOP and CUMULATE are"), reasons(COLUMNS,
                "SESSION(TABLE bids PARTITION BY auction, DESCRIPTOR(ts), INTERVAL '10' SECOND)", BY_AUCTION));
    }

    @Test
    void processingTime() {
        assertEquals(List.of("window: processing-time windows are not accelerated; only event time (a rowtime"
                + " attribute with a WATERMARK) is"), reasons(COLUMNS,
                "TUMBLE(TABLE bids, DESCRIPTOR(pt), INTERVAL '10' SECOND)", BY_AUCTION));
    }

    @Test
    void firstValue() {
        assertEquals(List.of("aggregates: FIRST_VALUE(price) is not accelerated; only COUNT(*), COUNT(x), SUM, MIN, MAX"
                + " and AVG are"), reasons("auction, window_start, window_end, FIRST_VALUE(price)", TUMBLE_10S, BY_AUCTION));
    }

    @Test
    void distinct() {
        assertEquals(List.of("aggregates: COUNT(DISTINCT bidder) is not accelerated: DISTINCT aggregates stay stock"),
                reasons("auction, window_start, window_end, COUNT(DISTINCT bidder)", TUMBLE_10S, BY_AUCTION));
    }

    @Test
    void daylightSavingZone() {
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "Australia/Adelaide");
        assertEquals(List.of("window: time zone Australia/Adelaide has no fixed UTC offset (daylight saving or"
                + " historical changes); only fixed-offset zones are accelerated"), reasons(plans, COLUMNS,
                "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR)", BY_AUCTION));
    }

    @Test
    void aTimestampRowtimeIgnoresTheSessionZone() {
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "Australia/Adelaide");
        Map<?, ?> window = (Map<?, ?>) plans.export(query(COLUMNS, TUMBLE_10S, BY_AUCTION)).descriptor().get("window");
        assertEquals("UTC", window.get("zone"));
    }

    @Test
    void offsetNotAlignedToTheEpoch() {
        assertEquals(List.of("window: the window ends are not aligned to the epoch (offset 300000 ms minus zone offset"
                + " 0 ms is no multiple of the size 3600000 ms): stock Flink fires such windows late or loses them,"
                + " which is not reproduced"), reasons(COLUMNS,
                "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '5' MINUTE)", BY_AUCTION));
    }

    @Test
    void zoneOffsetNotAlignedToTheEpoch() {
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "GMT+05:30");
        assertEquals(List.of("window: the window ends are not aligned to the epoch (offset 0 ms minus zone offset"
                + " 19800000 ms is no multiple of the size 3600000 ms): stock Flink fires such windows late or loses"
                + " them, which is not reproduced"), reasons(plans, COLUMNS,
                "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR)", BY_AUCTION));
    }

    @Test
    void windowAttachedStrategy() {
        // The outer aggregate groups by the inner one's window_start/window_end: no TUMBLE table function of its own.
        WindowAggPlans plans = new WindowAggPlans();
        List<WindowAggExport> exports = plans.exports(plans.plan("SELECT window_start, window_end, MAX(c) FROM ("
                + query("auction, window_start, window_end, COUNT(*) AS c", TUMBLE_10S, BY_AUCTION)
                + ") GROUP BY window_start, window_end"));
        assertEquals(2, exports.size());
        assertEquals(List.of("window: the aggregate groups by window_start/window_end computed before it"
                + " (WindowAttachedWindowingStrategy, e.g. over another window aggregate's windows); only an aggregate"
                + " over a TUMBLE, HOP or CUMULATE table function is accelerated"), reasons(exports.get(0)));
        assertTrue(exports.get(1).accelerated(), "the inner aggregate reads its TUMBLE");
    }

    @Test
    void asyncStateInTheSinglePhase() {
        WindowAggPlans plans = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE")
                .set("table.exec.async-state.enabled", "true");
        if (!AsyncStateOfThisLine.EXISTS) {
            assertTrue(plans.export(query(COLUMNS, TUMBLE_10S, BY_AUCTION)).accelerated(), "1.20 ignores the option");
            return;
        }
        assertEquals(List.of("state: 'table.exec.async-state.enabled' is true, so stock Flink runs this aggregate with"
                + " asynchronous state, which is not accelerated"), reasons(plans, COLUMNS, TUMBLE_10S, BY_AUCTION));
    }

    @Test
    void rocksDbWithHeapTimers() {
        WindowAggPlans plans = new WindowAggPlans().set("state.backend.type", "rocksdb")
                .set("state.backend.rocksdb.timer-service.factory", "HEAP");
        assertEquals(List.of("state: 'state.backend.rocksdb.timer-service.factory' is HEAP with the RocksDB state"
                + " backend: Flink would then write timers into raw keyed state, where the accelerated aggregate keeps"
                + " its windows"), reasons(plans, COLUMNS, TUMBLE_10S, BY_AUCTION));
    }

    @Test
    void aFieldMissingFromTheExecNodeIsNamed() {
        StockFields.Missing missing = assertThrows(StockFields.Missing.class,
                () -> StockFields.read(new Object(), StreamExecWindowAggregate.class, "windowSpec"));
        assertEquals("Flink's StreamExecWindowAggregate has no readable field 'windowSpec' in this version, so the"
                + " accelerator cannot read this node, which stays stock", missing.getMessage());
    }

    @Test
    void everyReasonIsListedNotOnlyTheFirst() {
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "Australia/Adelaide");
        assertEquals(List.of("aggregates: FIRST_VALUE(price) is not accelerated; only COUNT(*), COUNT(x), SUM, MIN, MAX"
                + " and AVG are",
                "window: time zone Australia/Adelaide has no fixed UTC offset (daylight saving or historical changes);"
                + " only fixed-offset zones are accelerated"), reasons(plans, "auction, window_start, window_end,"
                + " FIRST_VALUE(price)", "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR)", BY_AUCTION));
    }

    @Test
    void anUpdatingInput() {
        WindowAggPlans plans = new WindowAggPlans();
        plans.plans().env().executeSql("CREATE TABLE changes (auction BIGINT, price INT, ts TIMESTAMP(3),"
                + " WATERMARK FOR ts AS ts) WITH ('connector' = 'kafka', 'topic' = 'changes',"
                + " 'properties.bootstrap.servers' = 'localhost:9092', 'format' = 'debezium-json')");
        assertEquals(List.of("aggregates: the input is not insert-only (the aggregate needs retraction)"),
                reasons(plans, COLUMNS, "TUMBLE(TABLE changes, DESCRIPTOR(ts), INTERVAL '10' SECOND)", BY_AUCTION));
    }
}
