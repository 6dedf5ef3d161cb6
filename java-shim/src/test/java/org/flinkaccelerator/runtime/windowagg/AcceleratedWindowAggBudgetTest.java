package org.flinkaccelerator.runtime.windowagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.metrics.Gauge;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;

/**
 * The accelerated window aggregate's state budget (docs/design/stateful-window-aggregate.md §3.6):
 * the operator reserves its managed-memory share, the sidecar's state reports its entries and
 * bytes as operator gauges, and a state past the share fails the task naming what to raise.
 */
class AcceleratedWindowAggBudgetTest {
    private static final String QUERY = "SELECT k1, k2, a, window_end, COUNT(*)"
            + " FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))"
            + " GROUP BY k1, k2, a, window_start, window_end";
    private static final long WINDOW_START = 1_700_000_000_000L;

    /** The operator's metric group, kept so the test reads its gauges. */
    private static final class Metrics extends InterceptingTaskMetricGroup {
        long gauge(String name) {
            return (Long) ((Gauge<?>) operator.get(name)).getValue();
        }
    }

    /** {@code keys} distinct keys (a 100-character k1), one row each, all in the window starting at {@link #WINDOW_START}. */
    private static void feedKeys(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness,
            RowType inputType, int keys) throws Exception {
        RowDataSerializer binary = new RowDataSerializer(inputType);
        for (int i = 0; i < keys; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                Object value = switch (inputType.getFieldNames().get(f)) {
                    case "k1" -> StringData.fromString(String.format("%0100d", i));
                    case "k2" -> i % 3;
                    case "a" -> (long) i;
                    case "ts" -> TimestampData.fromEpochMillis(WINDOW_START + i % 10_000);
                    default -> throw new IllegalStateException("unexpected input field " + inputType);
                };
                row.setField(f, value);
            }
            harness.processElement(new StreamRecord<>(binary.toBinaryRow(row).copy()));
        }
    }

    private static MockEnvironment environment(long managedMemory, Metrics metrics) {
        return new MockEnvironmentBuilder().setManagedMemorySize(managedMemory).setMaxParallelism(128)
                .setMetricGroup(metrics).build();
    }

    @Test
    void gaugesReportTheReservedBudgetAndTheStatesEntriesAndBytes() throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(QUERY, AcceleratedWindowAggOperatorTest.ONE_PHASE);
        Metrics metrics = new Metrics();
        long managed = 8L << 20;
        try (MockEnvironment environment = environment(managed, metrics);
                KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                        planned.harness(planned.newAccelerated(), environment)) {
            harness.open();
            // The budget is what the operator reserved of the slot's managed memory: its OPERATOR share.
            long budget = metrics.gauge(AcceleratedWindowAggOperator.STATE_BUDGET_BYTES);
            assertTrue(budget >= managed / 4, "a share of " + managed + ": " + budget);
            assertEquals(budget, managed - environment.getMemoryManager().availableMemory());
            feedKeys(harness, planned.inputType(), 300);
            harness.prepareSnapshotPreBarrier(1);  // sends the batch
            assertEquals(300, metrics.gauge(AcceleratedWindowAggOperator.STATE_ENTRIES));
            long full = metrics.gauge(AcceleratedWindowAggOperator.STATE_BYTES);
            assertTrue(full > 300 * 100, "at least the keys' bytes: " + full);
            harness.processWatermark(new Watermark(Long.MAX_VALUE));
            assertEquals(300, harness.extractOutputValues().size());
            assertEquals(0, metrics.gauge(AcceleratedWindowAggOperator.STATE_ENTRIES));
            long empty = metrics.gauge(AcceleratedWindowAggOperator.STATE_BYTES);
            assertTrue(full - empty >= 300 * 100, "the fired windows' keys are freed: " + full + " -> " + empty);
        }
        // Closing released the reservation (the environment's close fails on memory still reserved).
    }

    @Test
    void stateOutgrowingTheBudgetFailsNamingTheOperatorBudgetSizeAndOptions() throws Exception {
        WindowAggHarnesses.Planned planned = WindowAggHarnesses.plan(QUERY, AcceleratedWindowAggOperatorTest.ONE_PHASE);
        Metrics metrics = new Metrics();
        try (MockEnvironment environment = environment(128L << 10, metrics);
                KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                        planned.harness(planned.newAccelerated(100), environment)) {
            harness.open();
            Exception e = assertThrows(Exception.class, () -> feedKeys(harness, planned.inputType(), 2_000));
            String message = ExceptionUtils.stringifyException(e);
            assertTrue(message.contains(planned.spec().operatorName() + ": update of 100 rows failed"), message);
            long budget = metrics.gauge(AcceleratedWindowAggOperator.STATE_BUDGET_BYTES);
            assertTrue(budget > 0 && message.contains("outgrew its budget of " + budget + " bytes"), message);
            assertTrue(message.contains("taskmanager.memory.managed.size")
                    && message.contains("taskmanager.memory.managed.consumer-weights"), message);
        }
    }
}
