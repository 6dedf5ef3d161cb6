package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Expression;
import io.substrait.proto.FilterRel;
import io.substrait.proto.NamedStruct;
import io.substrait.proto.Plan;
import io.substrait.proto.PlanRel;
import io.substrait.proto.ProjectRel;
import io.substrait.proto.ReadRel;
import io.substrait.proto.Rel;
import io.substrait.proto.RelCommon;
import io.substrait.proto.RelRoot;
import io.substrait.proto.Type;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Substrait plan of a segment's Calc chain: read the table {@value #DECODED}, then for each
 * Calc a Filter (if it has a condition) and a Project emitting only its expressions. The root
 * names the output columns.
 */
public final class SegmentPlanBuilder {
    /** The table the sidecar registers each decoded batch as. */
    public static final String DECODED = "decoded";

    private final FunctionRegistry registry;

    public SegmentPlanBuilder(FunctionRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param decoded the decoded table's columns, in order, with the names the sidecar gives them
     * @param calcs the Calcs from the source towards the sink
     * @param outputNames the names of the final output columns
     * @param output the type of the final output row, as the sink receives it
     * @throws NotReproducible with the first reason the chain cannot be run exactly
     */
    public Plan build(RowType decoded, List<CalcProgram> calcs, List<String> outputNames, RowType output) {
        FunctionAnchors anchors = new FunctionAnchors();
        ExpressionConverter converter = new ExpressionConverter(registry, anchors);
        Rel rel = calcs(read(decoded), decoded.getFieldCount(), false, calcs, outputNames.size(), converter);
        return plan(rel, rootNames(outputNames, output), anchors);
    }

    /**
     * The plan of a rows stage: as {@link #build}, but the decoded table's last column
     * ({@code carried}, the message index) is no input of the Calcs; every projection passes it
     * on, so it ends the output row.
     *
     * @param decoded the decoded table's columns, {@code carried} last
     * @param output the row the stock operators get (without {@code carried})
     */
    public Plan buildRows(RowType decoded, List<CalcProgram> calcs, RowType output, String carried) {
        FunctionAnchors anchors = new FunctionAnchors();
        ExpressionConverter converter = new ExpressionConverter(registry, anchors);
        Rel rel = calcs(read(decoded), decoded.getFieldCount() - 1, true, calcs, output.getFieldCount(), converter);
        List<String> names = rootNames(output.getFieldNames(), output);
        names.add(carried);
        return plan(rel, names, anchors);
    }

    /** Filter and Project relations for the Calcs over {@code rel}, whose first {@code width} columns they read. */
    private static Rel calcs(Rel rel, int width, boolean carry, List<CalcProgram> calcs, int outputWidth,
            ExpressionConverter converter) {
        for (CalcProgram calc : calcs) {
            try {
                if (calc.condition() != null) {
                    rel = Rel.newBuilder().setFilter(FilterRel.newBuilder()
                            .setInput(rel).setCondition(convert(converter, calc.condition()))).build();
                }
                if (!isIdentity(calc.projection(), width)) {
                    rel = project(rel, calc.projection(), width, carry, converter);
                }
            } catch (NotReproducible e) {
                throw new NotReproducible(calc.description() + ": " + e.getMessage());
            }
            width = calc.projection().size();
        }
        if (width != outputWidth) {
            throw new NotReproducible("the segment produces " + width + " columns, the sink takes " + outputWidth);
        }
        return rel;
    }

    private static Plan plan(Rel rel, List<String> names, FunctionAnchors anchors) {
        Plan.Builder plan = Plan.newBuilder();
        anchors.declareIn(plan);
        return plan.addRelations(PlanRel.newBuilder().setRoot(RelRoot.newBuilder().setInput(rel).addAllNames(names)))
                .build();
    }

    /** The root's names: each output column's, and the nested ROW field names in it after it, depth first. */
    private static List<String> rootNames(List<String> outputNames, RowType output) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < outputNames.size(); i++) {
            names.add(outputNames.get(i));
            names.addAll(depthFirstNames(output.getTypeAt(i)));
        }
        return names;
    }

    private static Rel read(RowType decoded) {
        Type.Struct.Builder struct = Type.Struct.newBuilder().setNullability(Type.Nullability.NULLABILITY_REQUIRED);
        for (RowType.RowField field : decoded.getFields()) {
            struct.addTypes(SubstraitTypes.of(field.getType()));
        }
        return Rel.newBuilder().setRead(ReadRel.newBuilder()
                .setBaseSchema(NamedStruct.newBuilder().addAllNames(depthFirstNames(decoded)).setStruct(struct))
                .setNamedTable(ReadRel.NamedTable.newBuilder().addNames(DECODED))).build();
    }

    /**
     * A NamedStruct's names: every field's, the fields of a ROW (also one inside an ARRAY or MAP)
     * and a timestamp's (millis, nanos) struct right after it, depth first.
     */
    private static List<String> depthFirstNames(LogicalType type) {
        List<String> names = new ArrayList<>();
        if (TemporalFunctions.isTimestamp(type)) {
            names.addAll(SubstraitTypes.TIMESTAMP_FIELDS);
        } else if (type instanceof RowType row) {
            for (RowType.RowField field : row.getFields()) {
                names.add(field.getName());
                names.addAll(depthFirstNames(field.getType()));
            }
        } else {
            for (LogicalType child : type.getChildren()) {
                names.addAll(depthFirstNames(child));
            }
        }
        return names;
    }

    /** A Project emitting only {@code projection}, then, with {@code carry}, the input's column after its {@code inputWidth}. */
    private static Rel project(Rel input, List<RexNode> projection, int inputWidth, boolean carry,
            ExpressionConverter converter) {
        ProjectRel.Builder project = ProjectRel.newBuilder().setInput(input);
        RelCommon.Emit.Builder emit = RelCommon.Emit.newBuilder();
        int inputColumns = inputWidth + (carry ? 1 : 0);
        for (int i = 0; i < projection.size(); i++) {
            Expression expression = convert(converter, projection.get(i));
            project.addExpressions(expression);
            emit.addOutputMapping(inputColumns + i);
        }
        if (carry) {
            emit.addOutputMapping(inputWidth);
        }
        return Rel.newBuilder().setProject(project.setCommon(RelCommon.newBuilder().setEmit(emit))).build();
    }

    private static Expression convert(ExpressionConverter converter, RexNode node) {
        try {
            return converter.convert(node);
        } catch (NotReproducible e) {
            throw new NotReproducible(node + ": " + e.getMessage());
        }
    }

    private static boolean isIdentity(List<RexNode> projection, int inputWidth) {
        if (projection.size() != inputWidth) {
            return false;
        }
        for (int i = 0; i < projection.size(); i++) {
            RexNode node = projection.get(i);
            if (!(node instanceof RexInputRef) || ((RexInputRef) node).getIndex() != i) {
                return false;
            }
        }
        return true;
    }
}
