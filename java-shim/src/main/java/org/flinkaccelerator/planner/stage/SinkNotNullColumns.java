package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.api.config.ExecutionConfigOptions.NotNullEnforcer;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.substrait.CalcProgram;

/**
 * Flink's not-null enforcer of a sink ({@code table.exec.sink.not-null-enforcer}), which checks
 * the sink table's NOT NULL physical columns in each row the sink gets, in column order: under
 * DROP it drops the row, under ERROR it fails the job on the first such row, naming its first
 * NULL column. A stage reproduces DROP with a last filter keeping the rows whose NOT NULL columns
 * all hold a value, and ERROR by naming those columns in its descriptor ({@code not_null}), which
 * the sidecar checks in the plan's result the same way, before the rowtime ({@link SinkChecks}). A
 * NOT NULL type is no guarantee (Flink's json format hands NULL to a NOT NULL field), so every NOT
 * NULL column is checked.
 */
final class SinkNotNullColumns {
    private SinkNotNullColumns() {}

    /** The sink columns Flink's enforcer checks: the NOT NULL ones of its physical row, by position. */
    static List<Integer> of(RowType sinkRow) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < sinkRow.getFieldCount(); i++) {
            if (!sinkRow.getTypeAt(i).isNullable()) {
                out.add(i);
            }
        }
        return out;
    }

    /** The reason the stage cannot reproduce the sink's constraint enforcer, or null when it can. */
    static String problem(RowType sinkRow, ReadableConfig config) {
        String nested = NestedConstraintEnforcer.problem(config);
        if (nested != null && sinkRow.getChildren().stream().anyMatch(t -> !t.getChildren().isEmpty())) {
            return nested;
        }
        return null;
    }

    /** Under ERROR, the names of the columns the stage checks (its descriptor's {@code not_null}); else none. */
    static List<String> checked(RowType sinkRow, ReadableConfig config) {
        return errors(config) ? of(sinkRow).stream().map(i -> sinkRow.getFieldNames().get(i)).toList() : List.of();
    }

    private static boolean errors(ReadableConfig config) {
        return config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NOT_NULL_ENFORCER) == NotNullEnforcer.ERROR;
    }

    /**
     * Under DROP, the last program of the stage: keeps the rows of {@code sinkInput} whose NOT
     * NULL sink columns all hold a value, every column unchanged; null when no column can be NULL.
     */
    static CalcProgram dropFilter(RowType sinkRow, RowType sinkInput, ReadableConfig config) {
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_NOT_NULL_ENFORCER) != NotNullEnforcer.DROP) {
            return null;
        }
        FlinkTypeFactory types = new FlinkTypeFactory(SinkNotNullColumns.class.getClassLoader(), FlinkTypeSystem.INSTANCE);
        RexBuilder rex = new RexBuilder(types);
        List<RexNode> projection = new ArrayList<>();
        for (int i = 0; i < sinkInput.getFieldCount(); i++) {
            projection.add(rex.makeInputRef(types.createFieldTypeFromLogicalType(sinkInput.getTypeAt(i)), i));
        }
        List<RexNode> checks = new ArrayList<>();
        for (int i : of(sinkRow)) {
            checks.add(rex.makeCall(SqlStdOperatorTable.IS_NOT_NULL, projection.get(i)));
        }
        return checks.isEmpty() ? null : new CalcProgram("the sink's not-null enforcer (DROP)", projection,
                RexUtil.composeConjunction(rex, checks));
    }
}
