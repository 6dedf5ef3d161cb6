package org.flinkaccelerator.planner.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.stage.SqlPlans;

/**
 * Plans window aggregate queries with Flink's real planner: over {@code bids} (a Kafka table with
 * a TIMESTAMP rowtime and a processing-time column) or {@code bids_ltz} (TIMESTAMP_LTZ rowtime),
 * into a Kafka sink {@code results}; and exports the window aggregates of each plan.
 */
final class WindowAggPlans {
    static final String TABLES = """
            CREATE TABLE bids (auction BIGINT, bidder BIGINT, price INT, qty SMALLINT, amount DECIMAL(10, 2),
              rate DOUBLE, note STRING, ts TIMESTAMP(3), pt AS PROCTIME(),
              WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
              'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE bids_ltz (auction BIGINT, price INT, ts TIMESTAMP_LTZ(3),
              WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (
              'connector' = 'kafka', 'topic' = 'bids_ltz', 'properties.bootstrap.servers' = 'localhost:9092',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            """;

    private final SqlPlans plans = new SqlPlans();

    WindowAggPlans set(String key, String value) {
        plans.set(key, value);
        return this;
    }

    SqlPlans plans() {
        return plans;
    }

    /**
     * Plans {@code INSERT INTO results <select>}, {@code results} being a Kafka json table with the
     * query's own columns, so each test writes only its query.
     */
    ExecNodeGraph plan(String select) {
        for (String ddl : TABLES.split(";\n")) {
            if (!ddl.isBlank()) {
                plans.env().executeSql(ddl);
            }
        }
        Schema schema = Schema.newBuilder().fromResolvedSchema(plans.env().sqlQuery(select).getResolvedSchema()).build();
        plans.env().createTemporaryTable("results", TableDescriptor.forConnector("kafka").schema(schema)
                .option("topic", "results").option("properties.bootstrap.servers", "localhost:9092")
                .format("json").build());
        return plans.plan("INSERT INTO results " + select + ";\n");
    }

    /** The exports of every window aggregate of the plan, sinks first, each named "bids-window-agg". */
    List<WindowAggExport> exports(ExecNodeGraph graph) {
        return WindowAggNode.find(graph).stream()
                .map(f -> WindowAggExport.of("bids-window-agg", f.fields(), plans.config())).toList();
    }

    /** The export of the plan's one window aggregate. */
    WindowAggExport export(String select) {
        List<WindowAggExport> exports = exports(plan(select));
        assertEquals(1, exports.size(), "one window aggregate expected");
        return exports.get(0);
    }

    /** {@code SELECT <columns> FROM TABLE(<window>) GROUP BY <groupBy>}. */
    static String query(String columns, String window, String groupBy) {
        return "SELECT " + columns + " FROM TABLE(" + window + ") GROUP BY " + groupBy;
    }
}
