package org.flinkaccelerator.runtime.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.lang.reflect.Field;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Meter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.metrics.groups.AbstractMetricGroup;
import org.apache.flink.streaming.api.operators.StreamOperator;

/**
 * The metrics an operator registered in its own group, read from the group a test harness gave it
 * (Flink's unregistered operator group keeps them, but has no getter), so a test can hold an
 * accelerated operator's metrics against its stock counterpart's.
 */
public final class RegisteredMetrics {
    private RegisteredMetrics() {}

    /** Each metric {@code operator} registered so far, by name. */
    @SuppressWarnings("unchecked")
    public static Map<String, Metric> of(StreamOperator<?> operator) throws ReflectiveOperationException {
        Field metrics = AbstractMetricGroup.class.getDeclaredField("metrics");
        metrics.setAccessible(true);
        return new TreeMap<>((Map<String, Metric>) metrics.get(operator.getMetricGroup()));
    }

    /**
     * Fails unless {@code accelerated} registered every metric {@code stock} did, under the same name,
     * each counter and meter with stock's count.
     */
    public static void assertStocksMetrics(Map<String, Metric> stock, Map<String, Metric> accelerated) {
        stock.forEach((name, metric) -> {
            Metric ours = accelerated.get(name);
            assertNotNull(ours, "stock registers " + name + ", the accelerated operator does not: "
                    + accelerated.keySet());
            if (metric instanceof Counter counter) {
                assertEquals(counter.getCount(), assertInstanceOf(Counter.class, ours, name).getCount(), name);
            } else if (metric instanceof Meter meter) {
                assertEquals(meter.getCount(), assertInstanceOf(Meter.class, ours, name).getCount(), name);
            }
        });
    }
}
