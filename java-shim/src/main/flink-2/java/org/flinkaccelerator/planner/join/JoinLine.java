package org.flinkaccelerator.planner.join;

/**
 * How Flink 2.x's {@code StreamingJoinOperator} orders an outer join's rows: it iterates an input
 * row's associated records lazily and retracts each null-padded row ({@code -D}) right before its
 * {@code +I} join (1.20's emits every {@code -D} first).
 */
final class JoinLine {
    private JoinLine() {}

    /** Whether an outer join's retractions of null-padded rows all come before the row's joins. */
    static final boolean RETRACTIONS_BEFORE_JOINS = false;
}
