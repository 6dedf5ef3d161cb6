package org.flinkaccelerator.runtime.groupwindow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The group window aggregates the planner export keeps stock, each with the reason
 * {@code accelerator explain} shows, and the ones it accelerates.
 */
class GroupWindowFallbackTest {
    private static void assertStock(List<String> reasons, String expected) {
        assertTrue(reasons.stream().anyMatch(r -> r.contains(expected)), "expected '" + expected + "' in " + reasons);
    }

    @Test
    void tumbleHopAndSessionOverARowtimeAreAccelerated() throws Exception {
        for (String window : new String[] {GroupWindowHarnesses.TUMBLE, GroupWindowHarnesses.HOP,
                GroupWindowHarnesses.SESSION}) {
            assertEquals(List.of(), GroupWindowHarnesses.stockReasons(GroupWindowHarnesses.query(window)), window);
        }
    }

    @Test
    void earlyAndLateFiringStayStock() throws Exception {
        String select = GroupWindowHarnesses.query(GroupWindowHarnesses.TUMBLE);
        assertStock(GroupWindowHarnesses.stockReasons(select, "table.exec.emit.early-fire.enabled", "true",
                "table.exec.emit.early-fire.delay", "1 s"), "early or late firing");
        assertStock(GroupWindowHarnesses.stockReasons(select, "table.exec.emit.late-fire.enabled", "true",
                "table.exec.emit.late-fire.delay", "1 s", "table.exec.emit.allow-lateness", "1 min"),
                "early or late firing");
    }

    @Test
    void distinctAndUnsupportedFunctionsStayStock() throws Exception {
        assertStock(GroupWindowHarnesses.stockReasons("SELECT k1, COUNT(DISTINCT b) FROM bids GROUP BY k1, "
                + GroupWindowHarnesses.TUMBLE), "DISTINCT");
        assertStock(GroupWindowHarnesses.stockReasons("SELECT k1, FIRST_VALUE(b) FROM bids GROUP BY k1, "
                + GroupWindowHarnesses.SESSION), "FIRST_VALUE");
    }

    @Test
    void processingTimeTumbleAndHopAreAccelerated() throws Exception {
        for (String window : new String[] {ProcessingTimeGroupWindowTest.TUMBLE, ProcessingTimeGroupWindowTest.HOP}) {
            assertEquals(List.of(), GroupWindowHarnesses.stockReasons(ProcessingTimeGroupWindowTest.query(window),
                    "table.local-time-zone", "UTC"), window);
        }
    }

    @Test
    void processingTimeSessionsStayStock() throws Exception {
        assertStock(GroupWindowHarnesses.stockReasons("SELECT k1, COUNT(*) FROM bids GROUP BY k1,"
                + " SESSION(pt, INTERVAL '1' SECOND)", "table.local-time-zone", "UTC"),
                "processing-time SESSION windows are not accelerated");
    }

    @Test
    void processingTimeWindowsOutsideUtcStayStock() throws Exception {
        assertStock(GroupWindowHarnesses.stockReasons("SELECT k1, COUNT(*) FROM bids GROUP BY k1,"
                + " TUMBLE(pt, INTERVAL '1' SECOND)", "table.local-time-zone", "Asia/Shanghai"),
                "processing-time windows in table.local-time-zone 'Asia/Shanghai'");
        assertStock(GroupWindowHarnesses.stockReasons("SELECT k1, COUNT(*) FROM bids GROUP BY k1,"
                + " TUMBLE(pt, INTERVAL '1' SECOND)", "table.local-time-zone", "Europe/London"),
                "only a zone at UTC+0 all year");
        assertEquals(List.of(), GroupWindowHarnesses.stockReasons("SELECT k1, COUNT(*) FROM bids GROUP BY k1,"
                + " TUMBLE(pt, INTERVAL '1' SECOND)", "table.local-time-zone", "Etc/UTC"));
    }
}
