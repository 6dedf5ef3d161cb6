package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The accelerated window aggregate against stock Flink's, both built by Flink's planner for the
 * same SQL and run in Flink's keyed operator harness on the same random streams (several keys,
 * NULLs, late rows, watermark bursts): the output lists, records and watermarks, must be equal in
 * order, each record byte for byte in Flink's binary row form. The main cases run for TUMBLE
 * windows, HOP windows of two and five slices and CUMULATE windows of five steps ({@link #WINDOWS})
 * on the heap backend, and
 * for TUMBLE also on RocksDB with RocksDB timers, whose timer queue orders ties by serialized bytes.
 * On both the timers are in the sidecar's queue of that backend's order; the path of other backends,
 * Flink's own timer service, runs every window once ({@link #flinkTimerPathEqualsStock}).
 */
class AcceleratedWindowAggOperatorTest {
    static final int MAX_PARALLELISM = 128;
    static final long SIZE = 10_000;

    static final String TUMBLE = "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)";
    static final String CUMULATE = "CUMULATE(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND)";
    /**
     * The window table functions the main cases run over: 10 s windows, tumbling, sliding by 5 s or
     * 2 s, or growing by 2 s steps.
     */
    static final String[] WINDOWS = {TUMBLE, "HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '10' SECOND)",
            "HOP(TABLE bids, DESCRIPTOR(ts), INTERVAL '2' SECOND, INTERVAL '10' SECOND)", CUMULATE};

    static final String ALL_FUNCTIONS = allFunctions(TUMBLE);
    static final String MANY_KEYS = manyKeys(TUMBLE);

    /** COUNT(*) over many keys: hundreds of (key, window) pairs in a few windows. */
    static String manyKeys(String window) {
        return "SELECT k1, k2, a, window_end, COUNT(*) FROM TABLE(" + window + ")"
                + " GROUP BY k1, k2, a, window_start, window_end";
    }

    /** Every window of {@link #WINDOWS} on the heap backend; TUMBLE on RocksDB too (fewer seeds there). */
    static Stream<Arguments> windowsAndBackends() {
        return Stream.concat(Stream.of(WINDOWS).map(w -> Arguments.of(w, WindowAggHarnesses.Backend.HEAP)),
                Stream.of(Arguments.of(TUMBLE, WindowAggHarnesses.Backend.ROCKSDB)));
    }

    /** COUNT(*), COUNT(x), SUM, MIN and MAX over INT, BIGINT, DOUBLE and DECIMAL per two keys, over {@code window}. */
    static String allFunctions(String window) {
        return "SELECT k1, k2, window_start, window_end, COUNT(*), COUNT(b), COUNT(c),"
                + " SUM(a), SUM(b), SUM(c), SUM(d), MIN(a), MAX(a), MIN(b), MAX(b), MIN(c), MAX(c), MIN(d), MAX(d)"
                + " FROM TABLE(" + window + ") GROUP BY k1, k2, window_start, window_end";
    }

    static final String[] ONE_PHASE = {"table.optimizer.agg-phase-strategy", "ONE_PHASE"};

    /** Runs {@code operator} over all of {@code events} in a harness of its own; returns its output. */
    static List<String> run(WindowAggHarnesses.Planned planned, OneInputStreamOperator<RowData, RowData> operator,
            List<WindowAggHarnesses.Event> events) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                planned.harness(operator, MAX_PARALLELISM, 1, 0)) {
            harness.open();
            WindowAggHarnesses.feed(harness, events, 0, events.size());
            List<String> out = new java.util.ArrayList<>(WindowAggHarnesses.output(harness, planned.outputType()));
            out.add("numLateRecordsDropped " + WindowAggHarnesses.dropped(operator));
            return out;
        }
    }

    private static int timeIndex(WindowAggHarnesses.Planned planned) {
        return planned.spec().timeIndex();
    }

    @ParameterizedTest
    @MethodSource("windowsAndBackends")
    void singlePhaseEqualsStockOnRandomStreams(String window, WindowAggHarnesses.Backend backend) throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(allFunctions(window), ONE_PHASE).on(backend);
        assertEquals(WindowAggSpec.SINGLE, planned.spec().phase());
        // HOP and CUMULATE windows fire each slice several times over, RocksDB is slow: fewer seeds for them.
        long seeds = backend == WindowAggHarnesses.Backend.ROCKSDB || window.equals(CUMULATE) ? 2
                : window.equals(TUMBLE) ? 12 : 4;
        for (long seed = 1; seed <= seeds; seed++) {
            List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                    seed, 1500, SIZE, planned.spec().slideMillis());
            List<String> stock = run(planned, planned.newStock(), events);
            List<String> ours = run(planned, planned.newAccelerated((int) (1 + seed * 37)), events);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20,
                    "the stream fires windows: " + stock.size());
            assertTrue(!stock.get(stock.size() - 1).equals("numLateRecordsDropped 0"), "the stream has late rows");
            assertEquals(stock, ours, "seed " + seed);
        }
    }

    /** AVG over every argument type it is accelerated for, over {@code window}. */
    static String averages(String window) {
        return "SELECT k1, k2, window_start, window_end, COUNT(*), AVG(e), AVG(f), AVG(b), AVG(a), AVG(g), AVG(c),"
                + " AVG(d) FROM TABLE(" + window + ") GROUP BY k1, k2, window_start, window_end";
    }

    /**
     * MIN and MAX over strings (random code points, supplementary ones and U+E000 to U+FFFF
     * included), dates, times, timestamps of precision 0, 6 and 9 and TIMESTAMP_LTZ of 3 and 6 (years
     * 1 to 9999, before 1970 and after 2262), booleans, TINYINT, SMALLINT and FLOAT (NaN, -0.0); SUM
     * over TINYINT, SMALLINT and FLOAT, whose integer sums wrap in a window of a few dozen rows.
     */
    static String extremes(String window) {
        return "SELECT k1, window_start, window_end, COUNT(*), MIN(s), MAX(s), MIN(dt), MAX(dt), MIN(tm), MAX(tm),"
                + " MIN(t0), MAX(t0), MIN(t6), MAX(t6), MIN(t9), MAX(t9), MIN(l3), MAX(l3), MIN(l6), MAX(l6),"
                + " MIN(bo), MAX(bo), MIN(e), MAX(e), MIN(f), MAX(f), MIN(g), MAX(g), SUM(e), SUM(f), SUM(g)"
                + " FROM TABLE(" + window + ") GROUP BY k1, window_start, window_end";
    }

    /** TUMBLE in one phase, and a HOP of two slices in two (its windows merge slices of merged partials). */
    static Stream<Arguments> windowsAndPhases() {
        return Stream.of(Arguments.of(WINDOWS[0], true), Arguments.of(WINDOWS[1], false));
    }

    @ParameterizedTest
    @MethodSource("windowsAndPhases")
    void averagesEqualStock(String window, boolean onePhase) throws Exception {
        // Integer averages truncate a wrapping BIGINT sum; FLOAT ones round a double quotient; DECIMAL
        // ones divide into scale 6. Two-phase: random (sum, count) partials, counts of 0 and below included.
        WindowAggHarnesses.Planned planned = onePhase ? WindowAggHarnesses.plan(averages(window), ONE_PHASE)
                : WindowAggHarnesses.plan(averages(window));
        assertEquals(onePhase ? WindowAggSpec.SINGLE : WindowAggSpec.GLOBAL, planned.spec().phase());
        for (long seed = 1; seed <= 2; seed++) {
            List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                    seed, 1500, SIZE, planned.spec().slideMillis());
            List<String> stock = run(planned, planned.newStock(), events);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
            assertEquals(stock, run(planned, planned.newAccelerated(), events), "seed " + seed);
        }
    }

    @ParameterizedTest
    @MethodSource("windowsAndPhases")
    void extremesOfEveryTypeAndNarrowSumsEqualStock(String window, boolean onePhase) throws Exception {
        WindowAggHarnesses.Planned planned = onePhase ? WindowAggHarnesses.plan(extremes(window), ONE_PHASE)
                : WindowAggHarnesses.plan(extremes(window));
        assertEquals(onePhase ? WindowAggSpec.SINGLE : WindowAggSpec.GLOBAL, planned.spec().phase());
        for (long seed = 1; seed <= 3; seed++) {
            List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                    seed, 1500, SIZE, planned.spec().slideMillis());
            List<String> stock = run(planned, planned.newStock(), events);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
            assertEquals(stock, run(planned, planned.newAccelerated((int) (1 + seed * 29)), events), "seed " + seed);
        }
    }

    /**
     * Aggregates with FILTER clauses (COUNT(*), COUNT, SUM, MIN, AVG), each its own condition, over
     * {@code window}; the plain COUNT(*) first, as the one that marks a HOP window empty.
     */
    static String filtered(String window) {
        return "SELECT k1, window_start, window_end, COUNT(*), COUNT(*) FILTER (WHERE b > 0),"
                + " COUNT(c) FILTER (WHERE a < 0), SUM(b) FILTER (WHERE c > 0), MIN(d) FILTER (WHERE k2 = 1),"
                + " AVG(a) FILTER (WHERE b > 0) FROM TABLE(" + window + ") GROUP BY k1, window_start, window_end";
    }

    @ParameterizedTest
    @MethodSource("windowsAndPhases")
    void filterClausesEqualStock(String window, boolean onePhase) throws Exception {
        // One phase: rows whose condition is FALSE or NULL are skipped per aggregate. Two phases: the
        // local phase filters, the global one merges the partials unfiltered.
        WindowAggHarnesses.Planned planned = onePhase ? WindowAggHarnesses.plan(filtered(window), ONE_PHASE)
                : WindowAggHarnesses.plan(filtered(window));
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                5, 1500, SIZE, planned.spec().slideMillis());
        List<String> stock = run(planned, planned.newStock(), events);
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
        assertEquals(stock, run(planned, planned.newAccelerated(), events));
    }

    @Test
    void doubleAndDecimalKeysGroupAsFlinkDoes() throws Exception {
        // -0.0 and 0.0, and NaN, are keys of their own or not exactly as Flink's BinaryRowData says.
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan("SELECT c, d, window_start, window_end,"
                + " COUNT(*), SUM(a), MAX(c) FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
                + " GROUP BY c, d, window_start, window_end", ONE_PHASE);
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                9, 1500, SIZE, planned.spec().slideMillis());
        List<String> stock = run(planned, planned.newStock(), events);
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("+I (-0.0,")), "a -0.0 key fires");
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("+I (NaN,")), "a NaN key fires");
        assertEquals(stock, run(planned, planned.newAccelerated(), events));
    }

    @ParameterizedTest
    @MethodSource("windowsAndBackends")
    void globalPhaseEqualsStockOnRandomPartials(String window, WindowAggHarnesses.Backend backend) throws Exception {
        // The default two-phase plan: the global operator reads the local phase's partial
        // accumulators and their slice end; random partials stand for any local phase's output,
        // including COUNT(*) partials that add up to 0 (seeds 22 and 28): stock emits nothing for
        // such an empty window when its timer fires.
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(allFunctions(window)).on(backend);
        assertEquals(WindowAggSpec.GLOBAL, planned.spec().phase());
        // CUMULATE has no empty windows (no COUNT(*) index): two seeds.
        long[] seeds = backend == WindowAggHarnesses.Backend.ROCKSDB ? new long[] {22}
                : window.equals(CUMULATE) ? new long[] {1, 2} : new long[] {1, 2, 3, 22, 28};
        for (long seed : seeds) {
            List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                    seed, 1500, SIZE, planned.spec().slideMillis());
            List<String> stock = run(planned, planned.newStock(), events);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
            assertEquals(stock, run(planned, planned.newAccelerated((int) (1 + seed * 53)), events), "seed " + seed);
        }
    }

    @Test
    void ltzRowtimeInAFixedOffsetZoneEqualsStock() throws Exception {
        // Hourly windows of a TIMESTAMP_LTZ rowtime in GMT+08:00: ends in the shifted wall clock,
        // timers and the late rule at the instant, window_time a TIMESTAMP_LTZ.
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan("SELECT k1, window_start, window_end, window_time,"
                + " COUNT(*), SUM(b), MAX(c) FROM TABLE(TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR))"
                + " GROUP BY k1, window_start, window_end, window_time",
                "table.optimizer.agg-phase-strategy", "ONE_PHASE", "table.local-time-zone", "GMT+08:00");
        assertEquals(java.time.ZoneId.of("GMT+08:00"), planned.spec().zone());
        for (long seed = 1; seed <= 3; seed++) {
            List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                    seed, 1500, 3_600_000, planned.spec().slideMillis());
            List<String> stock = run(planned, planned.newStock(), events);
            assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 10, "windows fire: " + stock.size());
            assertEquals(stock, run(planned, planned.newAccelerated(), events), "seed " + seed);
        }
    }

    @ParameterizedTest
    @FieldSource("WINDOWS")
    void flinkTimerPathEqualsStock(String window) throws Exception {
        // Backends whose timer order the sidecar does not reproduce keep the timers in Flink's timer service.
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(allFunctions(window), ONE_PHASE);
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                3, 1500, SIZE, planned.spec().slideMillis());
        List<String> stock = run(planned, planned.newStock(), events);
        assertTrue(stock.stream().filter(l -> l.startsWith("+I")).count() > 20, "windows fire: " + stock.size());
        assertEquals(stock, run(planned, planned.newAcceleratedOnFlinkTimers(), events));
    }

    @ParameterizedTest
    @MethodSource("windowsAndBackends")
    void countStarOnlyManyKeysOneWatermarkKeepsStockTieOrder(String window, WindowAggHarnesses.Backend backend)
            throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(manyKeys(window), ONE_PHASE).on(backend);
        List<WindowAggHarnesses.Event> events = WindowAggHarnesses.stream(planned.inputType(), timeIndex(planned),
                42, 3000, SIZE, planned.spec().slideMillis());
        // Only the final watermark: every window fires at once, so the order is the timer queue's ties.
        List<WindowAggHarnesses.Event> oneWatermark = events.stream()
                .filter(e -> e instanceof WindowAggHarnesses.Row
                        || ((WindowAggHarnesses.Mark) e).watermark() == Long.MAX_VALUE).toList();
        List<String> stock = run(planned, planned.newStock(), oneWatermark);
        assertTrue(stock.size() > 500, "many (key, window) pairs: " + stock.size());
        assertEquals(stock, run(planned, planned.newAccelerated(), oneWatermark));
    }
}
