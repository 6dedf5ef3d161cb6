package org.flinkaccelerator.planner;

/** Flink 2's SQL operators run on asynchronous state when {@code table.exec.async-state.enabled} is true. */
public final class AsyncStateOfThisLine {
    public static final boolean EXISTS = true;

    private AsyncStateOfThisLine() {}
}
