package org.flinkaccelerator.planner.report;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.ValidationException;
import org.flinkaccelerator.AcceleratorOptions;

/**
 * {@code accelerator.fallback.fail-on-fallback}: when true, a plan with any part on stock Flink is
 * refused at submission, listing each such part with its reason, so a job that was meant to run
 * accelerated never silently runs stock.
 */
public final class FailOnFallback {
    private FailOnFallback() {}

    /** Throws when the option is on and {@code report} names any stock part; otherwise does nothing. */
    public static void check(AccelerationReport report, ReadableConfig config) {
        if (!config.get(AcceleratorOptions.FAIL_ON_FALLBACK)) {
            return;
        }
        List<String> stock = report.stockParts();
        if (stock.isEmpty()) {
            return;
        }
        String key = AcceleratorOptions.FAIL_ON_FALLBACK.key();
        throw new ValidationException("flink-accelerator: '" + key + "' is true, and these parts of the plan"
                + " cannot run accelerated and would run on stock Flink:\n  " + String.join("\n  ", stock)
                + "\nChange the query so that they can be accelerated (docs/functions.md lists what can), or set '"
                + key + "' = 'false' to run them on stock Flink.");
    }
}
