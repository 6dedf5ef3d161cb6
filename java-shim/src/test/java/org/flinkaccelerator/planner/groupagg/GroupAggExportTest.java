package org.flinkaccelerator.planner.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/**
 * Which group aggregates the planner export accelerates, planned by Flink's real planner: a
 * one-phase aggregate of COUNT, SUM, MIN, MAX and AVG (FILTER clauses and DISTINCT included, with or
 * without GROUP BY keys) over an insert-only input is, and of COUNT, SUM and AVG over an updating one; every other shape
 * stays stock, with a reason naming what is not reproduced.
 */
class GroupAggExportTest {
    private static final String TABLE = "CREATE TABLE bids (auction BIGINT, bidder BIGINT, price INT, rate DOUBLE,"
            + " note STRING, ts TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";

    /** The exports of the plan's group aggregates (the stock reason of those found stock before export), sinks first. */
    private static List<GroupAggExport> exports(String select, String... options) {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(TABLE);
        plans.env().createTemporaryTable("results", TableDescriptor.forConnector("print").schema(Schema.newBuilder()
                .fromResolvedSchema(plans.env().sqlQuery(select).getResolvedSchema()).build()).build());
        ExecNodeGraph graph = plans.plan("INSERT INTO results " + select + ";\n");
        return GroupAggNode.find(graph).stream().map(f -> f.readable()
                ? GroupAggExport.of("bids-group-agg", f.fields(), plans.config())
                : new GroupAggExport("bids-group-agg", null, List.of(f.stock()))).toList();
    }

    private static String reasons(GroupAggExport export) {
        return export.fallback().stream().map(FallbackReason::toString).collect(Collectors.joining("; "));
    }

    private static String onlyReasons(String select, String... options) {
        List<GroupAggExport> exports = exports(select, options);
        assertEquals(1, exports.size(), "one group aggregate");
        assertTrue(!exports.get(0).accelerated(), exports.get(0).toJson());
        return reasons(exports.get(0));
    }

    @Test
    void aOnePhaseAggregateOfTheSupportedFunctionsIsExportedWithItsAccumulators() {
        List<GroupAggExport> exports = exports("SELECT auction, COUNT(*), COUNT(note), SUM(price), MIN(rate),"
                + " MAX(bidder) FROM bids GROUP BY auction");
        assertEquals(1, exports.size());
        String json = exports.get(0).toJson();
        assertTrue(exports.get(0).accelerated(), json);
        assertTrue(json.contains("\"function\": \"count1\"") && json.contains("\"function\": \"max\"")
                && json.contains("\"generate_update_before\": true") && json.contains("\"format\": 2"), json);
    }

    @Test
    void averagesFilterClausesAndAggregatesWithoutKeysAreExported() {
        String avg = exports("SELECT auction, AVG(price), AVG(rate) FROM bids GROUP BY auction").get(0).toJson();
        assertTrue(avg.contains("\"function\": \"avg\"") && avg.contains("\"acc\": \"BIGINT\""), avg);
        GroupAggExport filtered = exports("SELECT auction, COUNT(*) FILTER (WHERE price > 3),"
                + " SUM(bidder) FILTER (WHERE note IS NOT NULL) FROM bids GROUP BY auction").get(0);
        assertTrue(filtered.accelerated(), reasons(filtered));
        // Each FILTER's BOOLEAN column is an input field the operator sends to the sidecar.
        assertEquals(2, filtered.toJson().split("\"filter\": ").length - 1, filtered.toJson());
        assertTrue(filtered.toJson().replaceAll("\\s", "").matches(
                "(?s).*\"input\":\\{\"fields\":\\[.*\"type\":\"BOOLEANNOTNULL\".*\\]\\}.*"), filtered.toJson());
        GroupAggExport global = exports("SELECT COUNT(*), SUM(price), AVG(rate) FROM bids").get(0);
        assertTrue(global.accelerated(), reasons(global));
        assertTrue(global.toJson().contains("\"keys\": []"), global.toJson());
    }

    @Test
    void eachShapeNotReproducedStaysStockWithItsReason() {
        assertTrue(onlyReasons("SELECT auction, LISTAGG(note) FROM bids GROUP BY auction")
                .contains("LISTAGG(note) is not accelerated"));
        assertTrue(onlyReasons("SELECT auction, SUM(price) FROM bids GROUP BY auction", "table.exec.state.ttl", "1 h")
                .contains("state TTL ('table.exec.state.ttl' or a STATE_TTL hint) is 3600000 ms"));
        String miniBatch = onlyReasons("SELECT auction, SUM(price) FROM bids GROUP BY auction",
                "table.exec.mini-batch.enabled", "true", "table.exec.mini-batch.allow-latency", "1 s",
                "table.exec.mini-batch.size", "100", "table.optimizer.agg-phase-strategy", "ONE_PHASE");
        assertTrue(miniBatch.contains("'table.exec.mini-batch.enabled' is true"), miniBatch);
        String twoPhase = onlyReasons("SELECT auction, SUM(price) FROM bids GROUP BY auction",
                "table.exec.mini-batch.enabled", "true", "table.exec.mini-batch.allow-latency", "1 s",
                "table.exec.mini-batch.size", "100", "table.optimizer.agg-phase-strategy", "TWO_PHASE");
        assertTrue(twoPhase.contains("two-phase (local/global) group aggregates"), twoPhase);
    }

    @Test
    void anAggregateOverAnUpdatingInputCountsItsRowsAndRetracts() {
        List<GroupAggExport> exports = exports("SELECT n, COUNT(*), SUM(auction), AVG(p), COUNT(auction)"
                + " FROM (SELECT auction, COUNT(*) AS n, SUM(price) AS p FROM bids GROUP BY auction) GROUP BY n");
        assertEquals(2, exports.size());
        // Sinks first: the outer aggregate reads the inner one's updates.
        String outer = exports.get(0).toJson();
        assertTrue(exports.get(0).accelerated(), outer);
        // The query's COUNT(*) is the record counter; SUM becomes Flink's SUM with retraction.
        assertTrue(outer.contains("\"record_counter\": 0") && outer.contains("\"function\": \"sum_retract\"")
                && outer.contains("\"name\": \"$kind\""), outer);
        assertTrue(!exports.get(1).toJson().contains("$kind"), exports.get(1).toJson());
        // Without a COUNT(*) of its own, the aggregate counts its rows with one it does not emit.
        String hidden = exports("SELECT n, SUM(auction) FROM (SELECT auction, COUNT(*) AS n FROM bids"
                + " GROUP BY auction) GROUP BY n").get(0).toJson();
        assertTrue(hidden.contains("\"record_counter\": 1") && hidden.replaceAll("\\s", "")
                .contains("{\"function\":\"count1\",\"arg\":null,\"acc\":\"BIGINT\",\"emit\":false}"), hidden);
    }

    @Test
    void distinctAggregatesOverAnInsertOnlyInputAreExportedMarkedDistinct() {
        String query = "SELECT auction, COUNT(*), COUNT(DISTINCT bidder), COUNT(DISTINCT bidder) FILTER (WHERE"
                + " price > 3), COUNT(DISTINCT note) FILTER (WHERE price < 3), SUM(DISTINCT price), COUNT(note)"
                + " FROM bids GROUP BY auction";
        GroupAggExport export = exports(query).get(0);
        assertTrue(export.accelerated(), reasons(export));
        String json = export.toJson().replaceAll("\\s", "");
        assertEquals(4, json.split("\"distinct\":true").length - 1, json);
        assertTrue(json.contains("{\"function\":\"count\",\"arg\":\"bidder\",\"acc\":\"BIGINT\",\"emit\":true,"
                + "\"distinct\":true}") && json.contains("\"format\":2"), json);
        // The DISTINCT mark is part of the state's fingerprint: its state holds the values seen.
        String plain = exports(query.replace("DISTINCT ", "")).get(0).toJson();
        assertTrue(!fingerprint(json).equals(fingerprint(plain.replaceAll("\\s", ""))), json + plain);
    }

    private static String fingerprint(String compactJson) {
        int at = compactJson.indexOf("\"fingerprint\":\"") + 15;
        return compactJson.substring(at, compactJson.indexOf('"', at));
    }

    @Test
    void distinctShapesNotReproducedStayStockWithTheirReason() {
        // Sinks first: the outer aggregate reads the inner one's updates.
        GroupAggExport overUpdates = exports("SELECT n, COUNT(DISTINCT auction) FROM (SELECT auction, COUNT(*) AS n"
                + " FROM bids GROUP BY auction) GROUP BY n").get(0);
        assertTrue(reasons(overUpdates).contains("COUNT(DISTINCT auction) is not accelerated: DISTINCT over an"
                + " updating input stays stock"), reasons(overUpdates));
        assertTrue(onlyReasons("SELECT auction, COUNT(DISTINCT ARRAY[price]) FROM bids GROUP BY auction")
                .contains("is not accelerated: DISTINCT over ARRAY<INT"));
        List<GroupAggExport> split = exports("SELECT auction, COUNT(DISTINCT bidder) FROM bids GROUP BY auction",
                "table.optimizer.distinct-agg.split.enabled", "true");
        assertTrue(split.stream().anyMatch(e -> reasons(e).contains(
                "'table.optimizer.distinct-agg.split.enabled' is true: the split DISTINCT aggregates")),
                split.stream().map(GroupAggExportTest::reasons).toList().toString());
    }

    @Test
    void minAndMaxOverAnUpdatingInputStayStockNamingTheirMapView() {
        List<GroupAggExport> exports = exports("SELECT n, MAX(auction), MIN(auction) FROM (SELECT auction,"
                + " COUNT(*) AS n FROM bids GROUP BY auction) GROUP BY n");
        String reasons = reasons(exports.get(0));
        assertTrue(reasons.contains("MAX(auction) over an updating input is not accelerated")
                && reasons.contains("MaxWithRetractAggFunction") && reasons.contains("MinWithRetractAggFunction"),
                reasons);
    }
}
