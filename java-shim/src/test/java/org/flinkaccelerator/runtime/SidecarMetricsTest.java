package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;

/** The sidecar metrics count rows and payload bytes of each batch, both ways, under "accelerator". */
class SidecarMetricsTest {
    /** Puts every metric registered in it or its subgroups into one map, by "group.name". */
    private static final class Recording extends UnregisteredMetricsGroup {
        private final Map<String, Metric> metrics;
        private final String prefix;

        Recording(Map<String, Metric> metrics, String prefix) {
            this.metrics = metrics;
            this.prefix = prefix;
        }

        @Override
        public MetricGroup addGroup(String name) {
            return new Recording(metrics, prefix + name + ".");
        }

        @Override
        public Counter counter(String name) {
            return counter(name, new SimpleCounter());
        }

        @Override
        public <C extends Counter> C counter(String name, C counter) {
            metrics.put(prefix + name, counter);
            return counter;
        }

        @Override
        public <H extends Histogram> H histogram(String name, H histogram) {
            metrics.put(prefix + name, histogram);
            return histogram;
        }

        @Override
        public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
            metrics.put(prefix + name, gauge);
            return gauge;
        }
    }

    private static VectorSchemaRoot values(BufferAllocator allocator, String... texts) {
        VarBinaryVector vector = new VarBinaryVector("value", allocator);
        vector.allocateNew();
        for (int i = 0; i < texts.length; i++) {
            if (texts[i] == null) {
                vector.setNull(i);
            } else {
                vector.setSafe(i, texts[i].getBytes(StandardCharsets.UTF_8));
            }
        }
        vector.setValueCount(texts.length);
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(vector));
        root.setRowCount(texts.length);
        return root;
    }

    private final Map<String, Metric> registered = new HashMap<>();

    private long count(String name) {
        return ((Counter) registered.get("accelerator." + name)).getCount();
    }

    @Test
    void reportsTheArrowMemoryHeldNowAndAtMostAndTheSlotsReservation() {
        SidecarMetrics metrics = new SidecarMetrics(new Recording(registered, ""), new LongCounter(), new LongCounter(),
                new LongCounter());
        try (BufferAllocator allocator = new RootAllocator()) {
            metrics.arrowMemory(allocator, 64L << 20);
            assertEquals(64L << 20, ((Gauge<?>) registered.get("accelerator.managedMemoryBytes")).getValue());
            Gauge<?> now = (Gauge<?>) registered.get("accelerator.arrowBytes");
            Gauge<?> peak = (Gauge<?>) registered.get("accelerator.arrowPeakBytes");
            try (VectorSchemaRoot batch = values(allocator, "x".repeat(100_000))) {
                assertTrue((Long) now.getValue() >= 100_000, "held: " + now.getValue());
            }
            assertEquals(0L, now.getValue());
            assertTrue((Long) peak.getValue() >= 100_000, "peak: " + peak.getValue());
        }
    }

    @Test
    void countsRowsBytesBatchesAndTimeOfEachBatch() {
        LongCounter recordsInTotal = new LongCounter();
        LongCounter skippedTotal = new LongCounter();
        LongCounter exactPathTotal = new LongCounter();
        SidecarMetrics metrics = new SidecarMetrics(new Recording(registered, ""), recordsInTotal, skippedTotal,
                exactPathTotal);
        try (BufferAllocator allocator = new RootAllocator();
                VectorSchemaRoot in1 = values(allocator, "{\"a\":1}", null, "ü");
                VectorSchemaRoot out1 = values(allocator, "{\"a\":1}");
                VectorSchemaRoot in2 = values(allocator, "xy");
                VectorSchemaRoot out2 = values(allocator)) {
            metrics.batch(in1, List.of(out1), 2_500_000);
            VectorSchemaRoot skipping = new VectorSchemaRoot(new org.apache.arrow.vector.types.pojo.Schema(
                    out2.getSchema().getFields(),
                    Map.of(SidecarMetrics.SKIPPED_METADATA, "1", SidecarMetrics.EXACT_PATH_METADATA, "3")),
                    out2.getFieldVectors(), 0);
            metrics.batch(in2, List.of(skipping), 1_000);
        }
        assertEquals(1, count(SidecarMetrics.RECORDS_SKIPPED), "the answer's metadata says one message was skipped");
        assertEquals(1, skippedTotal.getLocalValue());
        assertEquals(3, count(SidecarMetrics.RECORDS_EXACT_PATH), "the answer's metadata says three took the exact path");
        assertEquals(3, exactPathTotal.getLocalValue());
        assertEquals(4, count(SidecarMetrics.RECORDS_IN));
        assertEquals(4, recordsInTotal.getLocalValue(), "the job accumulator counts as the metric does");
        assertEquals(1, count(SidecarMetrics.RECORDS_OUT));
        assertEquals(2, count(SidecarMetrics.BATCHES));
        assertEquals(7 + 2 + 2, count(SidecarMetrics.BYTES_IN), "ü is two bytes; a null has none");
        assertEquals(7, count(SidecarMetrics.BYTES_OUT));
        assertEquals(2_501_000, count(SidecarMetrics.TIME_NANOS));
        Histogram micros = (Histogram) registered.get("accelerator." + SidecarMetrics.BATCH_TIME_MICROS);
        assertEquals(2, micros.getCount());
        assertEquals(2_500, micros.getStatistics().getMax());
    }
}
