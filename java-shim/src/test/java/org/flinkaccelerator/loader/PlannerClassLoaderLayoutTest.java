package org.flinkaccelerator.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.apache.flink.configuration.CoreOptions;
import org.junit.jupiter.api.Test;

class PlannerClassLoaderLayoutTest {

    @Test
    void hookAddsOnlyTheAcceleratorPackageToComponentFirst() {
        assertArrayEquals(new String[] {"org.apache.flink"}, PlannerClassLoaderLayout.stockComponentFirstPackages());
        assertArrayEquals(new String[] {"org.apache.flink", "org.flinkaccelerator"},
                PlannerClassLoaderLayout.hookedComponentFirstPackages());
    }

    @Test
    void ownerFirstIsStocksLoggingAndSharedLibraries() {
        List<String> ownerFirst = Arrays.asList(PlannerClassLoaderLayout.ownerFirstPackages());
        assertTrue(ownerFirst.containsAll(Arrays.asList(CoreOptions.PARENT_FIRST_LOGGING_PATTERNS)));
        assertTrue(ownerFirst.containsAll(List.of("org.codehaus.janino", "org.codehaus.commons",
                "org.apache.commons.lang3", "org.apache.commons.math3", "org.apache.commons.text",
                "org.apache.hadoop")));
        assertFalse(ownerFirst.stream().anyMatch(p -> p.startsWith("org.flinkaccelerator")));
    }
}
