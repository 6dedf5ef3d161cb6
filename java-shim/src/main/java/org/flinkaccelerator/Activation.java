package org.flinkaccelerator;

/**
 * What the planner hook does with one plan. Decided per plan because {@code SET} can flip the
 * flag between two statements of one session.
 */
public enum Activation {
    /** The running Flink is not the release line the hook was written for: stock plan. */
    UNSUPPORTED_FLINK,
    /** {@code accelerator.enabled} is false: stock plan. */
    DISABLED,
    /** {@code accelerator.enabled} is true on a supported Flink: the plan may be rewritten. */
    ENABLED;

    public static Activation decide(String runningFlinkVersion, boolean enabledFlag) {
        if (!FlinkVersionSupport.isSupported(runningFlinkVersion)) {
            return UNSUPPORTED_FLINK;
        }
        return enabledFlag ? ENABLED : DISABLED;
    }

    /** True when the plan must go to Flink untouched. */
    public boolean keepsStockPlan() {
        return this != ENABLED;
    }
}
