package org.flinkaccelerator.planner.substrait;

import static org.flinkaccelerator.planner.substrait.FunctionEntry.builtin;
import static org.flinkaccelerator.planner.substrait.FunctionEntry.unsupported;

import io.substrait.proto.Expression;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexFieldAccess;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.flinkaccelerator.FlinkVersionSupport;

/**
 * ARRAY and MAP functions, as DataFusion's own collection built-ins (array_element, array_length,
 * cardinality, map_extract, make_array, map) wrapped where Flink's edge cases differ: an index
 * below 1 reads NULL in Flink, not from the end; CARDINALITY of nested arrays counts the outer
 * elements; a MAP constructor keeps one entry per key (first position, last value), where
 * DataFusion's map() fails on a duplicate; on 1.20, whose MAP constructor orders its entries by hash, a
 * MAP of more than one key stays stock unless only its entries count (a lookup, CARDINALITY). MULTISET has no layout in the sidecar.
 */
final class CollectionFunctions {
    /** Map key types whose equality is the same in Flink (generated equals) and Arrow (bytes/values). */
    private static final List<LogicalTypeRoot> LOOKUP_KEYS = List.of(LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT,
            LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.DATE);

    private CollectionFunctions() {}

    static List<FunctionEntry> entries() {
        return List.of(
                builtin("array[i], map[key]", List.of("ITEM"), "array: array_element, 1-based; NULL for a NULL array"
                        + " or index, an index below 1 or past the end, or a NULL element. map: map_extract's first"
                        + " entry of the key (integer, string, BOOLEAN or DATE keys); NULL for a NULL map or key or a"
                        + " missing key", CollectionFunctions::item),
                builtin("CARDINALITY(array), CARDINALITY(map)", List.of("CARDINALITY"), "array_length (the outer"
                        + " elements of nested arrays; DataFusion's cardinality counts them all) or cardinality"
                        + " of a map's entries, as INT; NULL for NULL", CollectionFunctions::cardinality),
                builtin("ARRAY[a, ...]", List.of("ARRAY_VALUE_CONSTRUCTOR"), "make_array of every element cast exactly"
                        + " to the array's element type", CollectionFunctions::array),
                builtin("MAP[k, v, ...]", List.of("MAP_VALUE_CONSTRUCTOR"), "map(make_array(keys), make_array(values))"
                        + " with literal non-NULL keys only (a column key may be NULL, which the sidecar's maps cannot"
                        + " hold, or repeat, which DataFusion's map fails on); a repeated key keeps its first position"
                        + " and its last value, as Flink 2.x (on 1.20, whose entry order is a hash order: one key only, unless"
                        + " a lookup or CARDINALITY reads it)", CollectionFunctions::map),
                unsupported("ELEMENT(array)", List.of("ELEMENT"), "fails the job on an array of more than one element;"
                        + " the sidecar evaluates an expression on every row of a batch, also rows that Flink's AND, OR,"
                        + " CASE or COALESCE skip, so it could fail where Flink does not"),
                unsupported("MULTISET[a, ...]", List.of("MULTISET_VALUE_CONSTRUCTOR", "MULTISET_QUERY_CONSTRUCTOR"),
                        "MULTISET has no layout in the sidecar"));
    }

    private static Expression item(RexCall call, ExpressionConverter c) {
        LogicalType container = ExpressionConverter.type(call.getOperands().get(0));
        LogicalType result = ExpressionConverter.type(call);
        if (container instanceof ArrayType) {
            return arrayElement(call, c, result);
        }
        if (container instanceof MapType) {
            return mapValue(call, c, (MapType) container, result);
        }
        throw new NotReproducible("[] on " + container.asSummaryString() + " is not supported yet");
    }

    /** array_element counts a negative index from the end; Flink's generated code gives NULL below 1. */
    private static Expression arrayElement(RexCall call, ExpressionConverter c, LogicalType result) {
        RexNode index = call.getOperands().get(1);
        LogicalType indexType = ExpressionConverter.type(index);
        if (!CastRules.isInteger(indexType)) {
            throw new NotReproducible("array[i] with a " + indexType.asSummaryString() + " index is not supported");
        }
        Expression array = c.convert(call.getOperands().get(0));
        Expression position = c.convert(index);
        if (!(index instanceof RexLiteral)) { // a literal index below 1 fails Flink's validation
            LogicalType bigint = new BigIntType(indexType.isNullable());
            Expression atLeastOne = c.call(Urns.COMPARISON, "gte", new BooleanType(indexType.isNullable()),
                    List.of(c.castExact(position, indexType, bigint), Literals.int64(1)));
            position = Expression.newBuilder().setIfThen(Expression.IfThen.newBuilder()
                    .addIfs(Expression.IfThen.IfClause.newBuilder().setIf(atLeastOne).setThen(position))
                    .setElse(nullLiteral(indexType.copy(true)))).build();
        }
        return c.call(Urns.DATAFUSION, "array_element", result, List.of(array, position));
    }

    /** map_extract is the list of the key's first entry's value (empty when missing). */
    private static Expression mapValue(RexCall call, ExpressionConverter c, MapType map, LogicalType result) {
        LogicalType key = map.getKeyType();
        if (!LOOKUP_KEYS.contains(key.getTypeRoot())) {
            throw new NotReproducible("map[key] with " + key.copy(true).asSummaryString() + " keys is not supported (key"
                    + " equality may differ between Flink and Arrow)");
        }
        RexNode lookup = call.getOperands().get(1);
        LogicalType keyType = key.copy(lookup.getType().isNullable());
        LogicalType values = new ArrayType(result);
        Expression extracted = c.call(Urns.DATAFUSION, "map_extract", values,
                List.of(entryOrderFree(call.getOperands().get(0), c), c.operand(call, 1, keyType)));
        return c.call(Urns.DATAFUSION, "array_element", result, List.of(extracted, Literals.int64(1)));
    }

    private static Expression cardinality(RexCall call, ExpressionConverter c) {
        LogicalType container = ExpressionConverter.type(call.getOperands().get(0));
        LogicalType result = ExpressionConverter.type(call);
        String name;
        if (container instanceof ArrayType) {
            name = "array_length";
        } else if (container instanceof MapType) {
            name = "cardinality";
        } else {
            throw new NotReproducible("CARDINALITY of " + container.asSummaryString() + " is not supported");
        }
        if (result.getTypeRoot() != LogicalTypeRoot.INTEGER) {
            throw new NotReproducible("CARDINALITY typed " + result.asSummaryString() + " is not supported");
        }
        // Both count as DataFusion's UInt64, which fits the INT Flink counts in (an Arrow list holds < 2^31).
        Expression count = c.call(Urns.DATAFUSION, name, new BigIntType(result.isNullable()),
                List.of(entryOrderFree(call.getOperands().get(0), c)));
        return c.cast(count, result);
    }

    /**
     * {@code operand} where only its entries count, not their order (a lookup, a count): a MAP
     * constructor there is reproduced on every line, 1.20's hash order included.
     */
    private static Expression entryOrderFree(RexNode operand, ExpressionConverter c) {
        if (operand instanceof RexCall call && call.getOperator().getKind() == SqlKind.MAP_VALUE_CONSTRUCTOR) {
            return map(call, c, false);
        }
        return c.convert(operand);
    }

    private static Expression array(RexCall call, ExpressionConverter c) {
        LogicalType result = ExpressionConverter.type(call);
        LogicalType element = ((ArrayType) result).getElementType();
        List<Expression> elements = new ArrayList<>();
        for (int i = 0; i < call.getOperands().size(); i++) {
            elements.add(c.operand(call, i, element.copy(call.getOperands().get(i).getType().isNullable())));
        }
        if (elements.isEmpty()) {
            throw new NotReproducible("an empty ARRAY[] is not supported");
        }
        return c.call(Urns.DATAFUSION, "make_array", result, elements);
    }

    /**
     * Flink's MAP constructor puts each key/value pair into a map in order: a repeated key keeps
     * the position of its first occurrence and the value of its last. With literal keys that is
     * known here; the values dropped must be ones that cannot fail (Flink still evaluates them).
     */
    private static Expression map(RexCall call, ExpressionConverter c) {
        return map(call, c, true);
    }

    /** {@code call}'s map; {@code orderSeen}: its entries' order reaches the output (1.20's is a hash order). */
    private static Expression map(RexCall call, ExpressionConverter c, boolean orderSeen) {
        MapType result = (MapType) ExpressionConverter.type(call);
        if (result.getKeyType().isNullable()) {
            throw new NotReproducible("MAP[...] with a key that may be NULL (type " + result.asSummaryString()
                    + "): the sidecar's maps hold NOT NULL keys only");
        }
        List<RexNode> operands = call.getOperands();
        Map<Object, Integer> lastValueOf = new LinkedHashMap<>();
        for (int i = 0; i + 1 < operands.size(); i += 2) {
            Integer replaced = lastValueOf.put(keyIdentity(operands.get(i), result), i + 1);
            if (replaced != null && !cannotFail(operands.get(replaced))) {
                throw new NotReproducible("MAP[...] with a repeated key whose dropped value " + operands.get(replaced)
                        + " Flink still evaluates");
            }
        }
        String flinkVersion = EnvironmentInformation.getVersion();
        if (orderSeen && lastValueOf.size() > 1 && !FlinkVersionSupport.mapConstructorKeepsKeyOrder(flinkVersion)) {
            throw new NotReproducible("MAP[...] with " + lastValueOf.size() + " keys on Flink " + flinkVersion
                    + ": its MAP constructor orders the entries by a hash of each key's generated code (Scala's"
                    + " groupBy), which the accelerator does not reproduce (2.x keeps the keys' order)");
        }
        List<Expression> keys = new ArrayList<>();
        List<Expression> values = new ArrayList<>();
        LogicalType valueType = result.getValueType();
        for (Map.Entry<Object, Integer> entry : lastValueOf.entrySet()) {
            int value = entry.getValue();
            int key = firstKeyIndex(operands, entry.getKey(), result);
            keys.add(c.operand(call, key, result.getKeyType()));
            values.add(c.operand(call, value, valueType.copy(operands.get(value).getType().isNullable())));
        }
        return c.call(Urns.DATAFUSION, "map", result, List.of(
                c.call(Urns.DATAFUSION, "make_array", new ArrayType(false, result.getKeyType()), keys),
                c.call(Urns.DATAFUSION, "make_array", new ArrayType(false, valueType), values)));
    }

    private static int firstKeyIndex(List<RexNode> operands, Object identity, MapType result) {
        for (int i = 0; i + 1 < operands.size(); i += 2) {
            if (keyIdentity(operands.get(i), result).equals(identity)) {
                return i;
            }
        }
        throw new IllegalStateException("key " + identity + " not among " + operands);
    }

    /** A literal key's value as Flink compares it after casting to the key type; string and integer keys only. */
    private static Object keyIdentity(RexNode key, MapType result) {
        if (!(key instanceof RexLiteral) || ((RexLiteral) key).isNull()) {
            throw new NotReproducible("MAP[...] with a key that is not a literal (it may repeat at run time,"
                    + " where DataFusion's map() fails and Flink keeps the last value)");
        }
        RexLiteral literal = (RexLiteral) key;
        LogicalType type = ExpressionConverter.type(key);
        if (SubstraitTypes.isRoot(type, LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR)
                && SubstraitTypes.isRoot(result.getKeyType(), LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR)) {
            return "s:" + literal.getValueAs(String.class);
        }
        if (CastRules.isInteger(type) && CastRules.isInteger(result.getKeyType())) {
            return Objects.requireNonNull(literal.getValueAs(Long.class));
        }
        throw new NotReproducible("MAP[...] with " + type.asSummaryString() + " keys as "
                + result.getKeyType().asSummaryString() + " is not supported yet");
    }

    private static boolean cannotFail(RexNode value) {
        return value instanceof RexLiteral || value instanceof RexInputRef || value instanceof RexFieldAccess;
    }

    private static Expression nullLiteral(LogicalType type) {
        return Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setNullable(true)
                .setNull(SubstraitTypes.of(type))).build();
    }
}
