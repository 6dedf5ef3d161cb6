package org.flinkaccelerator.planner;

/** Flink 1.20 has only the version 1 OVER functions, so its OVER aggregates stay stock and the accelerated operator has no stock oracle to be compared with. */
public final class OverFunctionV2OfThisLine {
    public static final boolean EXISTS = false;

    private OverFunctionV2OfThisLine() {}
}
