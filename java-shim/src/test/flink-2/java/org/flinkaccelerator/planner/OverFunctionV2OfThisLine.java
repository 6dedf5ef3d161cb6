package org.flinkaccelerator.planner;

/** Flink 2 runs an unbounded event-time OVER aggregate with {@code RowTimeUnboundedPrecedingOverFunctionV2} by default, the function the accelerated OVER aggregate reproduces. */
public final class OverFunctionV2OfThisLine {
    public static final boolean EXISTS = true;

    private OverFunctionV2OfThisLine() {}
}
