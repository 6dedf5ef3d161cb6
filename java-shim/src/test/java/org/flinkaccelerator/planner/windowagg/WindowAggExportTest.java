package org.flinkaccelerator.planner.windowagg;

import static org.flinkaccelerator.planner.windowagg.WindowAggPlans.query;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The descriptor of real plans' window aggregates: the single phase ({@code ONE_PHASE}) reads rows
 * and names their argument columns, the global phase (the default) reads the local phase's
 * accumulators; expected values are read off the SQL and Flink's aggregate functions.
 */
class WindowAggExportTest {
    static final String TUMBLE_10S = "TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND)";
    static final String BY_AUCTION = "auction, window_start, window_end";

    private static JsonNode json(WindowAggExport export) throws Exception {
        assertTrue(export.accelerated(), () -> "expected a descriptor, got " + export.fallback());
        return new ObjectMapper().readTree(export.toJson());
    }

    private static List<String> texts(JsonNode array, String member) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.get(member).isNull() ? null : n.get(member).asText()));
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void singlePhaseReadsRowsWithTheKeyBytesKeyGroupRowtimeAndArgumentColumns() throws Exception {
        WindowAggPlans plans = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        JsonNode d = json(plans.export(query("auction, window_start, window_end, COUNT(*), SUM(price), MAX(price)",
                TUMBLE_10S, BY_AUCTION)));
        assertEquals(1, d.get("protocol").asInt());
        assertEquals("window_agg", d.get("kind").asText());
        assertEquals("bids-window-agg", d.get("name").asText());
        assertEquals("single", d.get("phase").asText());
        JsonNode window = d.get("window");
        assertEquals("tumble", window.get("type").asText());
        assertEquals(10_000, window.get("size_ms").asLong());
        assertEquals(0, window.get("offset_ms").asLong());
        assertEquals("TIMESTAMP(3)", window.get("time_type").asText());
        assertEquals("UTC", window.get("zone").asText());
        assertEquals(0, window.get("zone_offset_ms").asLong());
        assertEquals(List.of("auction"), texts(d.get("keys"), "name"));
        assertEquals(List.of("BIGINT"), texts(d.get("keys"), "type"));
        assertEquals(List.of("$key", "$key_group", "$time", "price"), texts(d.get("input").get("fields"), "name"));
        assertEquals(List.of("VARBINARY(2147483647)", "INT NOT NULL", "BIGINT NOT NULL", "INT"),
                texts(d.get("input").get("fields"), "type"));
        JsonNode aggregates = d.get("aggregates");
        assertEquals(List.of("count1", "sum", "max"), texts(aggregates, "function"));
        assertEquals(Arrays.asList(null, "price", "price"), texts(aggregates, "arg"));
        // Count1AggFunction's buffer is a nullable BIGINT that starts at 0; SUM/MAX(INT) keep INT.
        assertEquals(List.of("BIGINT", "INT", "INT"), texts(aggregates, "acc"));
        assertEquals(List.of("true", "true", "true"), texts(aggregates, "emit"));
        assertEquals(List.of("window_start", "window_end"), strings(d.get("window_properties")));
        assertEquals(List.of("auction", "EXPR$3", "EXPR$4", "EXPR$5", "window_start", "window_end"),
                texts(d.get("output").get("fields"), "name"));
        assertEquals(List.of("BIGINT", "BIGINT NOT NULL", "INT", "INT", "TIMESTAMP(3) NOT NULL", "TIMESTAMP(3) NOT NULL"),
                texts(d.get("output").get("fields"), "type"));
        assertEquals(2, d.get("state").get("format").asInt());
        assertTrue(d.get("state").get("fingerprint").asText().matches("[0-9a-f]{64}"), d.get("state").toString());
    }

    @Test
    void globalPhaseReadsTheLocalPhasesAccumulatorsByDefault() throws Exception {
        JsonNode d = json(new WindowAggPlans().export(query(
                "auction, window_start, window_end, COUNT(*), COUNT(note), SUM(bidder), MIN(bidder), MAX(bidder)",
                TUMBLE_10S, BY_AUCTION)));
        assertEquals("global", d.get("phase").asText());
        assertEquals(List.of("$key", "$key_group", "$time", "count1$0", "count$1", "sum$2", "min$3", "max$4"),
                texts(d.get("input").get("fields"), "name"));
        assertEquals(List.of("VARBINARY(2147483647)", "INT NOT NULL", "BIGINT NOT NULL", "BIGINT", "BIGINT", "BIGINT",
                "BIGINT", "BIGINT"), texts(d.get("input").get("fields"), "type"));
        assertEquals(List.of("count1", "count", "sum", "min", "max"), texts(d.get("aggregates"), "function"));
        // Each aggregate reads its partial accumulator: the column the local phase wrote for it.
        assertEquals(List.of("count1$0", "count$1", "sum$2", "min$3", "max$4"), texts(d.get("aggregates"), "arg"));
        assertEquals(List.of("auction", "EXPR$3", "EXPR$4", "EXPR$5", "EXPR$6", "EXPR$7", "window_start", "window_end"),
                texts(d.get("output").get("fields"), "name"));
    }

    @Test
    void avgSumsAndCountsWithItsResultTypeInBothPhases() throws Exception {
        String columns = "auction, window_start, window_end, AVG(qty), AVG(amount), AVG(rate)";
        WindowAggPlans single = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        JsonNode d = json(single.export(query(columns, TUMBLE_10S, BY_AUCTION)));
        assertEquals(List.of("avg", "avg", "avg"), texts(d.get("aggregates"), "function"));
        assertEquals(List.of("qty", "amount", "rate"), texts(d.get("aggregates"), "arg"));
        // AvgAggFunction's sum field: BIGINT for SMALLINT, DECIMAL(38, s), DOUBLE; the count is implied.
        assertEquals(List.of("BIGINT", "DECIMAL(38, 2)", "DOUBLE"), texts(d.get("aggregates"), "acc"));
        assertFalse(d.get("aggregates").get(0).has("count_arg"));
        assertEquals(List.of("BIGINT", "SMALLINT", "DECIMAL(38, 6)", "DOUBLE", "TIMESTAMP(3) NOT NULL",
                "TIMESTAMP(3) NOT NULL"), texts(d.get("output").get("fields"), "type"));

        JsonNode global = json(new WindowAggPlans().export(query(columns, TUMBLE_10S, BY_AUCTION)));
        assertEquals("global", global.get("phase").asText());
        // The local phase ships each AVG's (sum, count); the hidden COUNT(*) is not derived for TUMBLE.
        assertEquals(List.of("$key", "$key_group", "$time", "sum$0", "count$1", "sum$2", "count$3", "sum$4", "count$5"),
                texts(global.get("input").get("fields"), "name"));
        assertEquals(List.of("sum$0", "sum$2", "sum$4"), texts(global.get("aggregates"), "arg"));
        assertEquals(List.of("count$1", "count$3", "count$5"), texts(global.get("aggregates"), "count_arg"));
    }

    @Test
    void filterClausesNameTheirBooleanColumnInPhaseSingleOnly() throws Exception {
        String columns = "auction, window_start, window_end, COUNT(*) FILTER (WHERE price > 10),"
                + " SUM(bidder) FILTER (WHERE note IS NOT NULL), MAX(price)";
        WindowAggPlans single = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        JsonNode d = json(single.export(query(columns, TUMBLE_10S, BY_AUCTION)));
        JsonNode aggregates = d.get("aggregates");
        // Each condition is a column Flink computes before the aggregate ($f<n>), read as BOOLEAN input.
        List<String> inputs = texts(d.get("input").get("fields"), "name");
        for (int i = 0; i < 2; i++) {
            String filter = aggregates.get(i).get("filter").asText();
            assertTrue(filter.matches("\\$f\\d+"), filter);
            String type = d.get("input").get("fields").get(inputs.indexOf(filter)).get("type").asText();
            assertTrue(type.startsWith("BOOLEAN"), type);
        }
        assertNotEquals(aggregates.get(0).get("filter"), aggregates.get(1).get("filter"));
        assertFalse(aggregates.get(2).has("filter"));

        // Two phases: the local phase filters; the global one merges partials, with no filter.
        JsonNode global = json(new WindowAggPlans().export(query(columns, TUMBLE_10S, BY_AUCTION)));
        global.get("aggregates").forEach(a -> assertFalse(a.has("filter"), a.toString()));
    }

    @Test
    void smallintSumsInItsOwnTypeAndStringAndTimestampExtremesKeepTheirs() throws Exception {
        // ShortSumAggFunction sums as SMALLINT; StringMinAggFunction holds a STRING, TimestampMaxAggFunction
        // the argument's precision.
        WindowAggPlans plans = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        JsonNode d = json(plans.export(query("window_start, window_end, SUM(qty), MIN(note), MAX(ts)",
                TUMBLE_10S, "window_start, window_end")));
        assertEquals(List.of("sum", "min", "max"), texts(d.get("aggregates"), "function"));
        assertEquals(List.of("SMALLINT", "VARCHAR(2147483647)", "TIMESTAMP(3)"), texts(d.get("aggregates"), "acc"));
    }

    @Test
    void decimalSumAccumulatesAtPrecision38AndDoubleKeepsDouble() throws Exception {
        WindowAggPlans plans = new WindowAggPlans().set("table.optimizer.agg-phase-strategy", "ONE_PHASE");
        JsonNode d = json(plans.export(query("window_start, window_end, SUM(amount), MIN(amount), SUM(rate), MAX(rate)",
                TUMBLE_10S, "window_start, window_end")));
        assertEquals(0, d.get("keys").size(), "no key: one group per window");
        assertEquals(List.of("$key", "$key_group", "$time", "amount", "rate"), texts(d.get("input").get("fields"), "name"));
        assertEquals(List.of("DECIMAL(38, 2)", "DECIMAL(10, 2)", "DOUBLE", "DOUBLE"), texts(d.get("aggregates"), "acc"));
        // The aggregate's own output: keys, values, then the window properties (a Calc reorders them).
        assertEquals(List.of("EXPR$2", "EXPR$3", "EXPR$4", "EXPR$5", "window_start", "window_end"),
                texts(d.get("output").get("fields"), "name"));
        assertEquals("DECIMAL(38, 2)", d.get("output").get("fields").get(0).get("type").asText());
    }

    @Test
    void ltzRowtimeShiftsIntoTheSessionZoneWithItsFixedOffsetAndWindowTimeIsLtz() throws Exception {
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "GMT+08:00");
        JsonNode d = json(plans.export(query("auction, window_start, window_end, window_time, SUM(price)",
                "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR)", "auction, window_start, window_end, window_time")));
        JsonNode window = d.get("window");
        assertEquals(3_600_000, window.get("size_ms").asLong());
        assertEquals("TIMESTAMP(3) WITH LOCAL TIME ZONE", window.get("time_type").asText());
        assertEquals("GMT+08:00", window.get("zone").asText());
        assertEquals(8 * 3_600_000, window.get("zone_offset_ms").asLong());
        assertEquals(List.of("window_start", "window_end", "window_time"), strings(d.get("window_properties")));
        JsonNode last = d.get("output").get("fields").get(d.get("output").get("fields").size() - 1);
        assertEquals("window_time", last.get("name").asText());
        assertEquals("TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL", last.get("type").asText());
    }

    @Test
    void anOffsetThatRealignsTheEndsToTheEpochInAFixedZoneIsAccelerated() throws Exception {
        // GMT+05:30: hourly ends at :30 local are whole hours in UTC, so stock fires each window at its end.
        WindowAggPlans plans = new WindowAggPlans().set("table.local-time-zone", "GMT+05:30");
        JsonNode d = json(plans.export(query("auction, window_start, window_end, COUNT(*)",
                "TUMBLE(TABLE bids_ltz, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '30' MINUTE)", BY_AUCTION)));
        assertEquals(1_800_000, d.get("window").get("offset_ms").asLong());
        assertEquals(19_800_000, d.get("window").get("zone_offset_ms").asLong());
    }
}
