package org.flinkaccelerator.planner;

/** Flink 1.20 has no asynchronous SQL state: it ignores {@code table.exec.async-state.enabled}. */
public final class AsyncStateOfThisLine {
    public static final boolean EXISTS = false;

    private AsyncStateOfThisLine() {}
}
