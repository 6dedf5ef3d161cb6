package org.flinkaccelerator;

/**
 * Decides whether the running Flink may be hooked. The planner hook depends on internal planner
 * classes, so it runs only on the releases the compatibility suite has passed on
 * ({@link BuildInfo#supportedFlinkVersions}); any other release keeps stock behaviour (and says so
 * once, naming those).
 */
public final class FlinkVersionSupport {
    private FlinkVersionSupport() {}

    /** True when {@code runningVersion} is exactly one of the supported releases. */
    public static boolean isSupported(String runningVersion) {
        return runningVersion != null && BuildInfo.supportedFlinkVersions().contains(runningVersion);
    }

    /**
     * True when the json format of {@code runningVersion} drops TIME's fraction of a second, both
     * decoding and encoding (1.20's and 2.2's {@code LocalTime.toSecondOfDay}); 2.3's keeps the
     * milliseconds, which the sidecar does not reproduce.
     */
    public static boolean jsonTimeDropsFraction(String runningVersion) {
        return runningVersion.startsWith("2.2.") || runningVersion.startsWith("1.20.");
    }

    /**
     * True when the csv format of {@code runningVersion} writes a DECIMAL with its column's scale
     * (2.x: {@code 0.000000000100000000} in a DECIMAL(38, 18)), as the sidecar does; 1.20's writes
     * it without the trailing zeros ({@code 0.0000000001}).
     */
    public static boolean csvDecimalKeepsScale(String runningVersion) {
        return !runningVersion.startsWith("1.20.");
    }

    /**
     * True when, on {@code runningVersion}, a record whose key the json key format cannot read under
     * 'ignore-parse-errors' is dropped by the Kafka source: 1.20's json format hands it no key row
     * (its deserializer returns null and the schema's default collect skips it), so 1.20's Kafka
     * connector emits nothing for the record. 2.x's json format collects the null key row, on which
     * the connector fails unless the value format also ignores parse errors.
     */
    public static boolean unreadableJsonKeyDropsRecord(String runningVersion) {
        return runningVersion.startsWith("1.20.");
    }

    /**
     * True when the MAP constructor of {@code runningVersion} writes its entries in the order of
     * their keys' first appearance (2.x). 1.20's groups the entries with Scala's groupBy, whose
     * hash order (of the generated code of each key) the accelerator does not reproduce.
     */
    public static boolean mapConstructorKeepsKeyOrder(String runningVersion) {
        return !runningVersion.startsWith("1.20.");
    }

    /**
     * True when the json format of {@code runningVersion}, under 'json.encode.decimal-as-plain-number',
     * writes a DECIMAL with its column's scale (2.x: {@code 1.10} in a DECIMAL(10, 2)), as the sidecar
     * does; 1.20's writes it without the trailing zeros ({@code 1.1}).
     */
    public static boolean jsonPlainDecimalKeepsScale(String runningVersion) {
        return !runningVersion.startsWith("1.20.");
    }
}
