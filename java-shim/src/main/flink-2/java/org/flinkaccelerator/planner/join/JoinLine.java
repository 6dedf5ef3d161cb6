package org.flinkaccelerator.planner.join;

/** On Flink 2.x the accelerated join reproduces stock's {@code StreamingJoinOperator}: nothing stays stock for the line. */
final class JoinLine {
    private JoinLine() {}

    /** Always null. */
    static String problem() {
        return null;
    }
}
