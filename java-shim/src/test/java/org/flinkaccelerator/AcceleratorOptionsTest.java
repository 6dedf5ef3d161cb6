package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;

class AcceleratorOptionsTest {

    @Test
    void registryListsEveryOptionOnceUnderTheAcceleratorPrefix() {
        List<String> keys = AcceleratorOptions.all().stream().map(ConfigOption::key).collect(Collectors.toList());
        assertEquals(List.of("accelerator.enabled", "accelerator.python.executable", "accelerator.batch.size",
                "accelerator.batch.max-bytes", "accelerator.batch.max-delay", "accelerator.memory.arrow-limit",
                "accelerator.shared-memory.budget",
                "accelerator.sidecar.timeout", "accelerator.sidecar.heartbeat-interval",
                "accelerator.encode-stages.enabled", "accelerator.encode-stages.upsert.enabled",
                "accelerator.encode-stages.fused.enabled",
                "accelerator.window-aggregate.enabled", "accelerator.window-aggregate.local-phase.enabled",
                "accelerator.group-aggregate.enabled", "accelerator.deduplicate.enabled",
                "accelerator.top-n.enabled", "accelerator.join.enabled", "accelerator.over-aggregate.enabled",
                "accelerator.group-window-aggregate.enabled", "accelerator.window-join.enabled",
                "accelerator.exchange.batched.enabled", "accelerator.fallback.fail-on-fallback"), keys);
    }

    @Test
    void everyOptionHasADefaultAndADescription() {
        for (ConfigOption<?> option : AcceleratorOptions.all()) {
            assertTrue(option.hasDefaultValue(), option.key());
            assertFalse(option.description().getBlocks().isEmpty(), option.key());
        }
    }

    @Test
    void offByDefaultSoTheJarAloneChangesNothing() {
        Configuration empty = new Configuration();
        assertFalse(empty.get(AcceleratorOptions.ENABLED));
        assertFalse(empty.get(AcceleratorOptions.FAIL_ON_FALLBACK));
        assertFalse(empty.get(AcceleratorOptions.WINDOW_AGGREGATE), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.GROUP_AGGREGATE), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.DEDUPLICATE), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.TOP_N), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.JOIN), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.OVER_AGGREGATE), "off unless asked for");
        assertFalse(empty.get(AcceleratorOptions.GROUP_WINDOW_AGGREGATE), "off unless asked for");
        // On: the fold is taken only where the result is stock's, and only once 'accelerator.enabled' is.
        assertTrue(empty.get(AcceleratorOptions.WINDOW_AGGREGATE_LOCAL_PHASE));
        assertEquals("python3", empty.get(AcceleratorOptions.PYTHON_EXECUTABLE));
        assertTrue(empty.get(AcceleratorOptions.BATCH_SIZE) > 0);
        assertTrue(empty.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes() > 0);
        assertTrue(empty.get(AcceleratorOptions.BATCH_MAX_DELAY).compareTo(Duration.ZERO) > 0);
    }

    @Test
    void valuesParseTheWayConfigYamlAndSetSpellThem() {
        Configuration conf = Configuration.fromMap(Map.of(
                "accelerator.enabled", "true",
                "accelerator.python.executable", "/opt/venv/bin/python",
                "accelerator.batch.size", "65536",
                "accelerator.batch.max-bytes", "16 mb",
                "accelerator.batch.max-delay", "250 ms",
                "accelerator.memory.arrow-limit", "2 gb",
                "accelerator.sidecar.timeout", "5 s",
                "accelerator.sidecar.heartbeat-interval", "1 min",
                "accelerator.fallback.fail-on-fallback", "true"));
        assertEquals(Duration.ofSeconds(5), conf.get(AcceleratorOptions.SIDECAR_TIMEOUT));
        assertEquals(Duration.ofMinutes(1), conf.get(AcceleratorOptions.SIDECAR_HEARTBEAT_INTERVAL));
        assertTrue(conf.get(AcceleratorOptions.ENABLED));
        assertEquals("/opt/venv/bin/python", conf.get(AcceleratorOptions.PYTHON_EXECUTABLE));
        assertEquals(65536, conf.get(AcceleratorOptions.BATCH_SIZE));
        assertEquals(16L << 20, conf.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes());
        assertEquals(Duration.ofMillis(250), conf.get(AcceleratorOptions.BATCH_MAX_DELAY));
        assertEquals(2L << 30, conf.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
        assertTrue(conf.get(AcceleratorOptions.FAIL_ON_FALLBACK));
    }
}
