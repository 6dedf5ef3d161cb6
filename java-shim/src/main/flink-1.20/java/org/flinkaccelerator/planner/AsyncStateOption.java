package org.flinkaccelerator.planner;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;

/** Flink 1.20's SQL operators have no asynchronous state (it came with Flink 2): nothing stays stock for it. */
public final class AsyncStateOption {
    private AsyncStateOption() {}

    /** Always null. */
    public static String problem(ReadableConfig config, String operator) {
        return null;
    }

    /** Always null. */
    public static String problem(ReadableConfig config, AggregateInfoList infos, String operator) {
        return null;
    }
}
