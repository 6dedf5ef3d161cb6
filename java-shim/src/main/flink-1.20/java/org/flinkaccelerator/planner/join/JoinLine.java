package org.flinkaccelerator.planner.join;

/**
 * On the Flink 1.20 line regular joins stay stock: the accelerated join is checked against Flink
 * 2.x's {@code StreamingJoinOperator} and RocksDB backend only (1.20's backend is another class,
 * which the operator refuses).
 */
final class JoinLine {
    private JoinLine() {}

    static String problem() {
        return "this is the Flink 1.20 line, where regular joins stay stock: the accelerated join reproduces"
                + " Flink 2.x's StreamingJoinOperator on Flink 2.x's RocksDB backend only";
    }
}
