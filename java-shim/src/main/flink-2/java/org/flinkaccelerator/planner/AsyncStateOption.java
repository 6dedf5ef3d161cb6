package org.flinkaccelerator.planner;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.apache.flink.table.planner.plan.utils.AggregateUtil;

/**
 * Flink 2's asynchronous state for SQL operators ({@code table.exec.async-state.enabled}): stock
 * then builds operators the accelerated ones do not mirror, so those stay stock with this reason.
 */
public final class AsyncStateOption {
    private AsyncStateOption() {}

    /** Why {@code operator} stays stock when the option is on, else null. */
    public static String problem(ReadableConfig config, String operator) {
        return config.get(ExecutionConfigOptions.TABLE_EXEC_ASYNC_STATE_ENABLED) ? reason(operator) : null;
    }

    /** As {@link #problem(ReadableConfig, String)}, for an aggregate whose functions stock may run on async state. */
    public static String problem(ReadableConfig config, AggregateInfoList infos, String operator) {
        return config.get(ExecutionConfigOptions.TABLE_EXEC_ASYNC_STATE_ENABLED)
                && AggregateUtil.isAsyncStateEnabled(config, infos) ? reason(operator) : null;
    }

    private static String reason(String operator) {
        return "'" + ExecutionConfigOptions.TABLE_EXEC_ASYNC_STATE_ENABLED.key() + "' is true, so stock Flink runs this "
                + operator + " with asynchronous state, which is not accelerated";
    }
}
