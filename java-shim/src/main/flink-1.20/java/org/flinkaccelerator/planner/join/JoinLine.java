package org.flinkaccelerator.planner.join;

/**
 * How Flink 1.20's {@code StreamingJoinOperator} orders an outer join's rows: it collects an input
 * row's associated records into a list ({@code AbstractStreamingJoinOperator.AssociatedRecords})
 * and emits every {@code -D} of a null-padded row they retract before the first {@code +I} join
 * (2.x's iterates them lazily and retracts each right before its join). The descriptor tells the
 * sidecar so; the state views, the order of a key's rows and the semi/anti operator are 2.x's.
 */
final class JoinLine {
    private JoinLine() {}

    /** Whether an outer join's retractions of null-padded rows all come before the row's joins. */
    static final boolean RETRACTIONS_BEFORE_JOINS = true;
}
