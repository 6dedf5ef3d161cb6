package org.flinkaccelerator.loader;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.CoreOptions;

/**
 * Which packages the planner's component class loader takes from Flink's own class path (owner
 * first) and which from the planner jars (component first). These are stock Flink 2.2.1's lists,
 * plus the accelerator's own package as component first: its planner-side classes sit in the
 * component jars while its options and version checks sit in the owner's, and the two halves
 * must see each other.
 */
public final class PlannerClassLoaderLayout {
    /** The accelerator's package; loaded component first. */
    public static final String ACCELERATOR_PACKAGE = "org.flinkaccelerator";

    private PlannerClassLoaderLayout() {}

    /** Owner-first packages, as stock 2.2.1: logging, plus what flink-table-runtime and flink-dist ship. */
    public static String[] ownerFirstPackages() {
        return Stream.concat(
                        Arrays.stream(CoreOptions.PARENT_FIRST_LOGGING_PATTERNS),
                        Stream.of(
                                "org.codehaus.janino",
                                "org.codehaus.commons",
                                "org.apache.commons.lang3",
                                "org.apache.commons.math3",
                                "org.apache.commons.text",
                                "org.apache.hadoop"))
                .toArray(String[]::new);
    }

    /** Stock 2.2.1's component-first list ({@code org.apache.flink}). */
    public static String[] stockComponentFirstPackages() {
        return new String[] {"org.apache.flink"};
    }

    /** The stock component-first list plus the accelerator's package. */
    public static String[] hookedComponentFirstPackages() {
        return Stream.concat(Arrays.stream(stockComponentFirstPackages()), Stream.of(ACCELERATOR_PACKAGE))
                .toArray(String[]::new);
    }

    /** Package prefixes Flink names in "class not found" hints, as stock 2.2.1. */
    public static Map<String, String> knownModuleAssociations() {
        return Map.of(
                "org.apache.flink.table.runtime", "flink-table-runtime",
                "org.apache.flink.formats.raw", "flink-table-runtime",
                "org.codehaus.janino", "flink-table-runtime",
                "org.codehaus.commons", "flink-table-runtime",
                "org.apache.flink.table.shaded.com.jayway", "flink-table-runtime");
    }
}
