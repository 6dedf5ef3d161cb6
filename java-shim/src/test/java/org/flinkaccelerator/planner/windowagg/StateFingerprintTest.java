package org.flinkaccelerator.planner.windowagg;

import static org.flinkaccelerator.planner.windowagg.WindowAggPlans.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import org.junit.jupiter.api.Test;

/**
 * The state fingerprint guards restores: it changes with the keys, the aggregates, the window or
 * the phase, and stays equal for changes that leave the aggregate's state as it was.
 */
class StateFingerprintTest {
    private static final String TUMBLE_10S = WindowAggExportTest.TUMBLE_10S;
    private static final String BY_AUCTION = WindowAggExportTest.BY_AUCTION;
    private static final String COLUMNS = "auction, window_start, window_end, COUNT(*), SUM(price), MAX(price)";

    private static String fingerprint(String select) {
        return fingerprint(new WindowAggPlans(), select);
    }

    private static String fingerprint(WindowAggPlans plans, String select) {
        WindowAggExport export = plans.set("table.optimizer.agg-phase-strategy", "ONE_PHASE").export(select);
        assertNotNull(export.fingerprint(), () -> "expected an accelerated aggregate: " + export.fallback());
        return export.fingerprint();
    }

    /** An hourly window over the LTZ table in {@code zone}, {@code offset} from its whole hours. */
    private static String ltz(String zone, String offset) {
        return fingerprint(new WindowAggPlans().set("table.local-time-zone", zone), query(
                "auction, window_start, window_end, COUNT(*)",
                "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL " + offset + ")", BY_AUCTION));
    }

    private static final String BASE = query(COLUMNS, TUMBLE_10S, BY_AUCTION);

    @Test
    void equalForTheSameAggregate() {
        assertEquals(fingerprint(BASE), fingerprint(BASE), "planned twice");
        assertEquals(fingerprint(BASE), fingerprint(query(
                "auction AS a, window_start AS s, window_end AS e, COUNT(*) AS n, SUM(price) AS total, MAX(price) AS top",
                TUMBLE_10S, BY_AUCTION)), "output names");
        assertEquals(fingerprint(BASE), fingerprint("SELECT * FROM (" + BASE + ") WHERE auction > 10"),
                "a filter after the aggregate");
        assertEquals(fingerprint(BASE), fingerprint(query(COLUMNS,
                "TUMBLE((SELECT * FROM bids WHERE note <> 'x'), DESCRIPTOR(ts), INTERVAL '10' SECOND)", BY_AUCTION)),
                "a filter before the aggregate");
    }

    @Test
    void changesWithTheKeys() {
        assertNotEquals(fingerprint(BASE), fingerprint(query(
                "bidder, window_start, window_end, COUNT(*), SUM(price), MAX(price)", TUMBLE_10S,
                "bidder, window_start, window_end")), "another key of the same type");
        assertNotEquals(fingerprint(BASE), fingerprint(query(
                "auction, bidder, window_start, window_end, COUNT(*), SUM(price), MAX(price)", TUMBLE_10S,
                "auction, bidder, window_start, window_end")), "one more key");
    }

    @Test
    void changesWithTheAggregates() {
        assertNotEquals(fingerprint(BASE), fingerprint(query(
                "auction, window_start, window_end, COUNT(*), SUM(price), MIN(price)", TUMBLE_10S, BY_AUCTION)),
                "MIN instead of MAX");
        assertNotEquals(fingerprint(BASE), fingerprint(query(
                "auction, window_start, window_end, COUNT(*), SUM(bidder), MAX(price)", TUMBLE_10S, BY_AUCTION)),
                "another argument (and accumulator type)");
        assertNotEquals(fingerprint(BASE), fingerprint(query(
                "auction, window_start, window_end, COUNT(*), MAX(price), SUM(price)", TUMBLE_10S, BY_AUCTION)),
                "another order");
    }

    @Test
    void changesWithTheWindow() {
        assertNotEquals(fingerprint(BASE), fingerprint(query(COLUMNS,
                "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '20' SECOND)", BY_AUCTION)), "size");
        // Offsets and zones chosen so that every window end stays epoch-aligned (else it would stay stock).
        assertEquals(ltz("GMT+05:30", "'30' MINUTE"), ltz("GMT+05:30", "'30' MINUTE"));
        assertNotEquals(ltz("GMT+05:30", "'30' MINUTE"), ltz("GMT+05:30", "-'30' MINUTE"), "offset");
        assertNotEquals(ltz("GMT+05:30", "'30' MINUTE"), ltz("GMT+06:30", "'30' MINUTE"), "zone");
    }

    @Test
    void changesWithThePhase() {
        WindowAggExport twoPhase = new WindowAggPlans().export(BASE);
        assertEquals(WindowAggPhase.GLOBAL, twoPhase.phase());
        assertNotEquals(fingerprint(BASE), twoPhase.fingerprint());
    }
}
