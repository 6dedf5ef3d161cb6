package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Expression;
import io.substrait.proto.Expression.Cast.FailureBehavior;
import io.substrait.proto.FunctionArgument;
import java.util.List;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.types.logical.LogicalType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the RexNodes of a Calc into Substrait expressions over the Calc's input row. Calls go
 * through the {@link FunctionRegistry}; anything it cannot reproduce exactly throws
 * {@link NotReproducible} with the reason, and so does a registry entry that fails unexpectedly
 * (logged as the bug it is): planning never fails a job that stock Flink runs.
 */
public final class ExpressionConverter {
    private static final Logger LOG = LoggerFactory.getLogger(ExpressionConverter.class);

    private final FunctionRegistry registry;
    private final FunctionAnchors anchors;

    ExpressionConverter(FunctionRegistry registry, FunctionAnchors anchors) {
        this.registry = registry;
        this.anchors = anchors;
    }

    public Expression convert(RexNode node) {
        if (node instanceof RexInputRef) {
            type(node); // the column's type must be one the sidecar holds
            return field(((RexInputRef) node).getIndex());
        }
        if (node instanceof RexFieldAccess) {
            type(node);
            RexFieldAccess access = (RexFieldAccess) node;
            return nestedField(convert(access.getReferenceExpr()), access.getField().getIndex(), access);
        }
        if (node instanceof RexLiteral) {
            return Literals.of((RexLiteral) node, this);
        }
        if (node instanceof RexCall) {
            RexCall call = (RexCall) node;
            FunctionEntry entry = registry.find(call)
                    .orElseThrow(() -> new NotReproducible("function " + call.getOperator().getName()
                            + " is not in the accelerator's function registry"));
            if (entry.status() == FunctionStatus.UNSUPPORTED) {
                throw new NotReproducible(entry.sql() + ": " + entry.semantics());
            }
            try {
                return entry.serde().convert(call, this);
            } catch (NotReproducible e) {
                throw e;
            } catch (RuntimeException | AssertionError e) {
                // A serde meeting a call shape it did not expect is our bug: the Calc stays stock, the job runs.
                LOG.warn("The accelerator failed to convert {}; that Calc stays on stock Flink. This is a bug in the"
                        + " accelerator's function registry (entry '{}'); please report it with this stack trace.",
                        call, entry.sql(), e);
                throw new NotReproducible(entry.sql() + ": converting " + call + " failed (" + e
                        + "), a bug in the accelerator; kept stock");
            }
        }
        throw new NotReproducible("expression " + node + " (" + node.getKind() + ") is not supported yet");
    }

    /** The Flink type of an expression, which must have a Substrait form. */
    public static LogicalType type(RexNode node) {
        LogicalType type = FlinkTypeFactory.toLogicalType(node.getType());
        SubstraitTypes.of(type);
        return type;
    }

    /** Operand {@code i} of {@code call}, cast exactly to {@code target}. */
    public Expression operand(RexCall call, int i, LogicalType target) {
        RexNode operand = call.getOperands().get(i);
        return castExact(convert(operand), type(operand), target);
    }

    /** A call of a function declared under {@code urn}; its output type is Flink's. */
    public Expression call(String urn, String name, LogicalType outputType, List<Expression> arguments) {
        Expression.ScalarFunction.Builder function = Expression.ScalarFunction.newBuilder()
                .setFunctionReference(anchors.anchor(urn, name))
                .setOutputType(SubstraitTypes.of(outputType));
        for (Expression argument : arguments) {
            function.addArguments(FunctionArgument.newBuilder().setValue(argument));
        }
        return Expression.newBuilder().setScalarFunction(function).build();
    }

    /** {@code expression} (of Flink type {@code from}) as {@code to}, if that CAST is exact. */
    public Expression castExact(Expression expression, LogicalType from, LogicalType to) {
        String problem = CastRules.problem(from, to);
        if (problem != null) {
            throw new NotReproducible(problem);
        }
        if (SubstraitTypes.sameRepresentation(from, to)) {
            return expression;
        }
        return CastRules.nullOnOverflow(from, to) ? cast(expression, to, FailureBehavior.FAILURE_BEHAVIOR_RETURN_NULL)
                : cast(expression, to);
    }

    /** A CAST the caller knows to be exact for every value that can reach it. */
    public Expression cast(Expression expression, LogicalType to) {
        return cast(expression, to, FailureBehavior.FAILURE_BEHAVIOR_THROW_EXCEPTION);
    }

    private static Expression cast(Expression expression, LogicalType to, FailureBehavior onFailure) {
        return Expression.newBuilder().setCast(Expression.Cast.newBuilder()
                .setType(SubstraitTypes.of(to)).setInput(expression).setFailureBehavior(onFailure)).build();
    }

    /**
     * {@code row.field} as Substrait means it: the struct field reference of {@code row} with one
     * more child segment. Only rows that are (fields of) input columns are read this way.
     */
    private static Expression nestedField(Expression row, int index, RexFieldAccess access) {
        if (!row.hasSelection() || !row.getSelection().hasRootReference()
                || !row.getSelection().getDirectReference().hasStructField()) {
            throw new NotReproducible("field access " + access + " on a computed ROW value is not supported yet");
        }
        Expression.ReferenceSegment.StructField child = Expression.ReferenceSegment.StructField.newBuilder()
                .setField(index).build();
        return Expression.newBuilder().setSelection(row.getSelection().toBuilder()
                .setDirectReference(appendChild(row.getSelection().getDirectReference(), child))).build();
    }

    private static Expression.ReferenceSegment appendChild(Expression.ReferenceSegment segment,
            Expression.ReferenceSegment.StructField child) {
        Expression.ReferenceSegment.StructField field = segment.getStructField();
        Expression.ReferenceSegment.StructField.Builder out = field.toBuilder();
        if (field.hasChild()) {
            out.setChild(appendChild(field.getChild(), child));
        } else {
            out.setChild(Expression.ReferenceSegment.newBuilder().setStructField(child));
        }
        return Expression.ReferenceSegment.newBuilder().setStructField(out).build();
    }

    static Expression field(int index) {
        return Expression.newBuilder().setSelection(Expression.FieldReference.newBuilder()
                .setDirectReference(Expression.ReferenceSegment.newBuilder()
                        .setStructField(Expression.ReferenceSegment.StructField.newBuilder().setField(index)))
                .setRootReference(Expression.FieldReference.RootReference.getDefaultInstance())).build();
    }
}
