package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.util.List;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.junit.jupiter.api.Test;

/** How a conversion that goes wrong surfaces: always as a reason to stay stock, never as a planning failure. */
class ExpressionConverterTest {
    private final RexBuilder rex = new RexBuilder(
            new FlinkTypeFactory(getClass().getClassLoader(), FlinkTypeSystem.INSTANCE));

    @Test
    void aRegistryEntryThatFailsUnexpectedlyKeepsTheCallStockWithTheBugAsItsReason() {
        FunctionRegistry broken = FunctionRegistry.of(List.of(FunctionEntry.builtin("a + b", List.of("PLUS"), "",
                (call, c) -> {
                    throw new AssertionError("cannot convert CHAR literal to class java.lang.Integer");
                })));
        ExpressionConverter converter = new ExpressionConverter(broken, new FunctionAnchors());
        RexNode plus = rex.makeCall(SqlStdOperatorTable.PLUS, rex.makeExactLiteral(BigDecimal.ONE),
                rex.makeExactLiteral(BigDecimal.TEN));

        NotReproducible e = assertThrows(NotReproducible.class, () -> converter.convert(plus));
        assertTrue(e.getMessage().startsWith("a + b: converting +(1, 10) failed"), e.getMessage());
        assertTrue(e.getMessage().contains("cannot convert CHAR literal"), e.getMessage());
    }
}
