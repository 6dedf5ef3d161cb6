package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Expression;
import org.apache.calcite.rex.RexCall;

/** Turns one call of a Flink function into Substrait, or throws {@link NotReproducible}. */
@FunctionalInterface
public interface FunctionSerde {
    Expression convert(RexCall call, ExpressionConverter converter);
}
