package org.flinkaccelerator.runtime.groupagg;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.aggregate.GroupAggFunction;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.groupagg.GroupAggExport;
import org.flinkaccelerator.planner.groupagg.GroupAggNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's group aggregate ({@code KeyedProcessOperator} running {@code GroupAggFunction}, as
 * the planner translates it) and ours for the same SQL, both in Flink's keyed operator harness: ours
 * from the descriptor the planner export writes for the same exec node.
 */
final class GroupAggHarnesses {
    static final String TABLE = "CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, d DECIMAL(10, 2),"
            + " e TINYINT, f SMALLINT, g FLOAT, s STRING, dt DATE, tm TIME(3), t0 TIMESTAMP(0), t9 TIMESTAMP(9),"
            + " l6 TIMESTAMP_LTZ(6), bo BOOLEAN, ts TIMESTAMP(3)) WITH ('connector' = 'kafka', 'topic' = 'bids',"
            + " 'properties.bootstrap.servers' = 'localhost:9092', 'scan.startup.mode' = 'earliest-offset',"
            + " 'format' = 'json')";

    /**
     * An updating input: an upsert-kafka table keyed by {@code id}, which Flink normalizes into a
     * full changelog (+I, -U/+U, -D of whole rows) before the aggregate.
     */
    static final String UPSERT_TABLE = "CREATE TABLE bids (id INT, k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE,"
            + " d DECIMAL(10, 2), e TINYINT, f SMALLINT, g FLOAT, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'upsert-kafka',"
            + " 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092', 'key.format' = 'json',"
            + " 'value.format' = 'json')";

    /** Where the aggregate's rows go: an upsert sink (no update-befores) or one taking the whole changelog. */
    enum Sink {
        UPSERT,
        RETRACT
    }

    /** Stock's operator for the SQL and the accelerated one's spec, from the same exec node. */
    record Planned(StockKeyedOperator stock, GroupAggSpec spec) {
        AcceleratedGroupAggOperator newAccelerated() {
            return new AcceleratedGroupAggOperator(spec);
        }

        AcceleratedGroupAggOperator newAccelerated(int batchSize) {
            return new AcceleratedGroupAggOperator(new GroupAggSpec(spec.descriptorJson(), spec.inputType(),
                    spec.pythonExecutable(), batchSize, spec.batchBytes(), spec.maxDelay(), spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }
    }

    private GroupAggHarnesses() {}

    /** Plans {@code INSERT INTO results <select>} ({@code keys}: the results' primary key for {@link Sink#UPSERT}). */
    static Planned plan(String select, Sink sink, String keys, String... options) throws Exception {
        return plan(TABLE, select, sink, keys, options);
    }

    /** As {@link #plan(String, Sink, String, String...)}, over the table {@code table} creates. */
    static Planned plan(String table, String select, Sink sink, String keys, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        plans.env().executeSql(table);
        List<String> primaryKey = sink == Sink.UPSERT ? List.of(keys.split(",\\s*")) : List.of();
        ExecNodeGraph graph = StockKeyedOperator.plan(plans, select, primaryKey);
        List<FoundNode<GroupAggNode>> found = GroupAggNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one group aggregate, found " + found.size());
        }
        GroupAggExport export = GroupAggExport.of("bids-group-agg", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the group aggregate stays stock: " + export.fallback());
        }
        RowType inputType = found.get(0).fields().inputType();
        return new Planned(StockKeyedOperator.translated(plans, graph, f -> f instanceof GroupAggFunction, inputType),
                new GroupAggSpec(export.toJson(), inputType, TestPython.path()));
    }

    /** One input event: a row with or without a timestamp, or a watermark. */
    record Event(RowData row, Long timestamp, Long watermark) {}

    /**
     * A random insert-only stream over {@code inputType}: keys from a few values (NULL included),
     * values with NULLs and extremes (WindowAggHarnesses#value), most rows with a timestamp, and
     * a watermark now and then.
     */
    static List<Event> stream(RowType inputType, long seed, int rows) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                row.setField(f, WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f),
                        random));
            }
            out.add(new Event(binary.toBinaryRow(row).copy(), random.nextInt(10) == 0 ? null : 1_000L + i, null));
            if (random.nextInt(40) == 0) {
                out.add(new Event(null, null, 1_000L + i));
            }
        }
        return out;
    }

    /**
     * A random insert-only stream over {@code inputType} whose values repeat, as DISTINCT aggregates
     * need: each field but the BOOLEAN ones (FILTER conditions, drawn afresh) takes one of
     * {@code poolSize} values drawn once ({@link WindowAggHarnesses#value}: NULLs and extremes;
     * DOUBLE and FLOAT pools hold NaN, 0.0 and -0.0 as well), and half the rows go to the first
     * value of each key field (a hot key). Timestamps and watermarks as {@link #stream}'s.
     */
    static List<Event> pooledStream(RowType inputType, long seed, int rows, int poolSize) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<List<Object>> pools = new ArrayList<>();
        for (int f = 0; f < inputType.getFieldCount(); f++) {
            LogicalType type = inputType.getTypeAt(f);
            List<Object> pool = new ArrayList<>();
            if (type.getTypeRoot() == LogicalTypeRoot.DOUBLE) {
                pool.addAll(List.of(Double.NaN, 0.0, -0.0));
            } else if (type.getTypeRoot() == LogicalTypeRoot.FLOAT) {
                pool.addAll(List.of(Float.NaN, 0.0f, -0.0f));
            }
            while (pool.size() < poolSize) {
                pool.add(WindowAggHarnesses.value(type, inputType.getFieldNames().get(f), random));
            }
            pools.add(pool);
        }
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                String name = inputType.getFieldNames().get(f);
                List<Object> pool = pools.get(f);
                if (inputType.getTypeAt(f).getTypeRoot() == LogicalTypeRoot.BOOLEAN) {
                    row.setField(f, WindowAggHarnesses.value(inputType.getTypeAt(f), name, random));
                } else {
                    boolean hot = name.startsWith("k") && random.nextBoolean();
                    row.setField(f, pool.get(hot ? 0 : random.nextInt(pool.size())));
                }
            }
            out.add(new Event(binary.toBinaryRow(row).copy(), random.nextInt(10) == 0 ? null : 1_000L + i, null));
            if (random.nextInt(40) == 0) {
                out.add(new Event(null, null, 1_000L + i));
            }
        }
        return out;
    }

    /**
     * A random changelog over {@code inputType} (the aggregate's input: the upsert table's fields
     * it reads) as Flink's upsert normalization emits it: per upsert key (one of {@code upsertKeys}) an +I, then -U of the row held and +U of a new
     * one, or a -D of the row held, after which the id may be inserted again. Group keys come from
     * a few values, so groups empty (their last row retracted) and come back; values are
     * {@link #stream}'s. Now and then a -D of a row never inserted (a retraction for a group
     * without state, which stock ignores), a row without timestamp, a watermark.
     */
    static List<Event> changelog(RowType inputType, long seed, int rows, int upsertKeys) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        Map<Integer, RowData> held = new HashMap<>();
        List<Event> out = new ArrayList<>();
        for (int i = 0; out.size() < rows; i++) {
            int id = random.nextInt(upsertKeys);
            RowData previous = held.get(id);
            Long timestamp = random.nextInt(10) == 0 ? null : 1_000L + i;
            if (random.nextInt(50) == 0) {
                out.add(new Event(withKind(binary, randomRow(inputType, random), RowKind.DELETE), timestamp,
                        null));
            } else if (previous == null) {
                RowData row = randomRow(inputType, random);
                held.put(id, row);
                out.add(new Event(withKind(binary, row, RowKind.INSERT), timestamp, null));
            } else if (random.nextInt(3) == 0) {
                held.remove(id);
                out.add(new Event(withKind(binary, previous, RowKind.DELETE), timestamp, null));
            } else {
                RowData row = randomRow(inputType, random);
                held.put(id, row);
                out.add(new Event(withKind(binary, previous, RowKind.UPDATE_BEFORE), timestamp, null));
                out.add(new Event(withKind(binary, row, RowKind.UPDATE_AFTER), timestamp, null));
            }
            if (random.nextInt(40) == 0) {
                out.add(new Event(null, null, 1_000L + i));
            }
        }
        return out;
    }

    private static GenericRowData randomRow(RowType inputType, Random random) {
        GenericRowData row = new GenericRowData(inputType.getFieldCount());
        for (int f = 0; f < inputType.getFieldCount(); f++) {
            row.setField(f, WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f), random));
        }
        return row;
    }

    private static RowData withKind(RowDataSerializer binary, RowData row, RowKind kind) {
        BinaryRowData out = binary.toBinaryRow(row).copy();
        out.setRowKind(kind);
        return out;
    }

    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, List<Event> events)
            throws Exception {
        for (Event event : events) {
            feed(harness, event);
        }
    }

    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (event.row() == null) {
            harness.processWatermark(new Watermark(event.watermark()));
        } else if (event.timestamp() == null) {
            harness.processElement(new StreamRecord<>(event.row()));
        } else {
            harness.processElement(new StreamRecord<>(event.row(), event.timestamp()));
        }
    }
}
