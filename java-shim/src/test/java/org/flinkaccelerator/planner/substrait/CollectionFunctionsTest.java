package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.substrait.proto.Expression;
import io.substrait.proto.Plan;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.planner.calcite.FlinkTypeSystem;
import org.junit.jupiter.api.Test;

/** Which ARRAY, MAP and MULTISET calls a plan carries, as which DataFusion functions, and why the others stay stock. */
class CollectionFunctionsTest {
    private final RexBuilder rex = new RexBuilder(
            new FlinkTypeFactory(getClass().getClassLoader(), FlinkTypeSystem.INSTANCE));
    private final RelDataTypeFactory types = rex.getTypeFactory();
    private final FunctionAnchors anchors = new FunctionAnchors();
    private final ExpressionConverter converter = new ExpressionConverter(FunctionRegistry.standard(), anchors);

    private RelDataType nullable(RelDataType type) {
        return types.createTypeWithNullability(type, true);
    }

    private RelDataType sql(SqlTypeName name) {
        return nullable(types.createSqlType(name));
    }

    private RexNode intArray(int column) {
        return rex.makeInputRef(nullable(types.createArrayType(sql(SqlTypeName.INTEGER), -1)), column);
    }

    private RexNode map(RelDataType key, int column) {
        return rex.makeInputRef(nullable(types.createMapType(types.createTypeWithNullability(key, false),
                sql(SqlTypeName.INTEGER))), column);
    }

    private List<String> functionsUsed() {
        Plan.Builder plan = Plan.newBuilder();
        anchors.declareIn(plan);
        List<String> names = new ArrayList<>();
        plan.getExtensionsList().forEach(e -> names.add(e.getExtensionFunction().getName()));
        return names;
    }

    private String reason(RexNode node) {
        return assertThrows(NotReproducible.class, () -> converter.convert(node)).getMessage();
    }

    @Test
    void arrayElementWithAColumnIndexReadsNullBelowOne() {
        RexNode index = rex.makeInputRef(sql(SqlTypeName.INTEGER), 1);
        Expression element = converter.convert(rex.makeCall(SqlStdOperatorTable.ITEM, intArray(0), index));
        Expression position = element.getScalarFunction().getArguments(1).getValue();
        assertTrue(position.hasIfThen(), position.toString());
        assertTrue(position.getIfThen().getElse().getLiteral().hasNull());
        assertEquals(List.of("gte", "array_element"), functionsUsed());
    }

    @Test
    void arrayElementWithALiteralIndexIsArrayElement() {
        Expression element = converter.convert(rex.makeCall(SqlStdOperatorTable.ITEM, intArray(0),
                rex.makeExactLiteral(BigDecimal.valueOf(2))));
        assertEquals(2, element.getScalarFunction().getArguments(1).getValue().getLiteral().getI32());
        assertEquals(List.of("array_element"), functionsUsed());
    }

    @Test
    void mapLookupIsTheFirstValueMapExtractFinds() {
        RexNode key = rex.makeInputRef(sql(SqlTypeName.VARCHAR), 1);
        converter.convert(rex.makeCall(SqlStdOperatorTable.ITEM, map(types.createSqlType(SqlTypeName.VARCHAR), 0), key));
        assertEquals(List.of("map_extract", "array_element"), functionsUsed());
    }

    @Test
    void mapLookupOnDoubleKeysStaysStock() {
        RexNode key = rex.makeInputRef(sql(SqlTypeName.DOUBLE), 1);
        String why = reason(rex.makeCall(SqlStdOperatorTable.ITEM, map(types.createSqlType(SqlTypeName.DOUBLE), 0), key));
        assertTrue(why.contains("map[key] with DOUBLE keys is not supported"), why);
    }

    @Test
    void cardinalityCountsAnArraysOuterElementsAndAMapsEntriesAsInt() {
        Expression ofArray = converter.convert(rex.makeCall(SqlStdOperatorTable.CARDINALITY, intArray(0)));
        converter.convert(rex.makeCall(SqlStdOperatorTable.CARDINALITY, map(types.createSqlType(SqlTypeName.VARCHAR), 1)));
        assertTrue(ofArray.getCast().getType().hasI32(), ofArray.toString());
        assertEquals(List.of("array_length", "cardinality"), functionsUsed());
    }

    @Test
    void arrayConstructorIsMakeArray() {
        converter.convert(rex.makeCall(SqlStdOperatorTable.ARRAY_VALUE_CONSTRUCTOR,
                rex.makeInputRef(sql(SqlTypeName.INTEGER), 0), rex.makeExactLiteral(BigDecimal.ONE)));
        assertEquals(List.of("make_array"), functionsUsed());
    }

    @Test
    void mapConstructorKeepsARepeatedKeysFirstPositionAndLastValueOnFlink2AndStaysStockOn120() {
        RexNode a = rex.makeLiteral("a");
        RexNode b = rex.makeLiteral("b");
        RexNode column = rex.makeInputRef(sql(SqlTypeName.INTEGER), 0);
        RexNode call = rex.makeCall(SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR,
                a, column, b, rex.makeExactLiteral(BigDecimal.ONE), a, rex.makeExactLiteral(BigDecimal.TEN));
        if (EnvironmentInformation.getVersion().startsWith("1.20.")) {
            String why = reason(call);
            assertTrue(why.contains("MAP[...] with 2 keys on Flink 1.20.") && why.contains("groupBy"), why);
            return;
        }
        Expression map = converter.convert(call);
        Expression.ScalarFunction keys = map.getScalarFunction().getArguments(0).getValue().getScalarFunction();
        Expression.ScalarFunction values = map.getScalarFunction().getArguments(1).getValue().getScalarFunction();
        assertEquals(List.of("a", "b"), keys.getArgumentsList().stream()
                .map(k -> k.getValue().getLiteral().getString()).toList());
        assertEquals(List.of(10, 1), values.getArgumentsList().stream()
                .map(v -> v.getValue().getLiteral().getI32()).toList());
        assertEquals(List.of("make_array", "map"), functionsUsed());
    }

    @Test
    void aMapConstructorThatOnlyALookupOrCardinalityReadsRunsOnEveryLine() {
        RexNode map = rex.makeCall(SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR, rex.makeLiteral("a"),
                rex.makeInputRef(sql(SqlTypeName.INTEGER), 0), rex.makeLiteral("b"), rex.makeExactLiteral(BigDecimal.ONE));
        converter.convert(rex.makeCall(SqlStdOperatorTable.CARDINALITY, map));
        converter.convert(rex.makeCall(SqlStdOperatorTable.ITEM, map, rex.makeLiteral("b")));
        assertEquals(List.of("make_array", "map", "cardinality", "map_extract", "array_element"), functionsUsed());
    }

    @Test
    void mapConstructorOfOneRepeatedKeyIsAMapOfItsLastValueOnEveryLine() {
        RexNode a = rex.makeLiteral("a");
        Expression map = converter.convert(rex.makeCall(SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR,
                a, rex.makeExactLiteral(BigDecimal.ONE), a, rex.makeExactLiteral(BigDecimal.TEN)));
        Expression.ScalarFunction values = map.getScalarFunction().getArguments(1).getValue().getScalarFunction();
        assertEquals(List.of(10), values.getArgumentsList().stream()
                .map(v -> v.getValue().getLiteral().getI32()).toList());
    }

    @Test
    void mapConstructorWithAColumnKeyStaysStock() {
        RexNode key = rex.makeInputRef(types.createSqlType(SqlTypeName.VARCHAR), 0);
        String why = reason(rex.makeCall(SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR, key,
                rex.makeExactLiteral(BigDecimal.ONE)));
        assertTrue(why.contains("with a key that is not a literal"), why);
    }

    @Test
    void mapConstructorWithANullableKeyStaysStock() {
        RexNode key = rex.makeInputRef(sql(SqlTypeName.VARCHAR), 0);
        String why = reason(rex.makeCall(SqlStdOperatorTable.MAP_VALUE_CONSTRUCTOR, key,
                rex.makeExactLiteral(BigDecimal.ONE)));
        assertTrue(why.contains("with a key that may be NULL"), why);
    }

    @Test
    void elementStaysStockBecauseItFailsOnLongerArrays() {
        String why = reason(rex.makeCall(SqlStdOperatorTable.ELEMENT, intArray(0)));
        assertTrue(why.startsWith("ELEMENT(array): fails the job on an array of more than one element"), why);
    }

    @Test
    void multisetsHaveNoLayout() {
        RexNode multiset = rex.makeInputRef(nullable(types.createMultisetType(sql(SqlTypeName.INTEGER), -1)), 0);
        String why = reason(rex.makeCall(SqlStdOperatorTable.CARDINALITY, multiset));
        assertTrue(why.contains("has no layout in the sidecar"), why);
    }

    @Test
    void collectionCastsFollowTheirElementCasts() {
        RelDataType strings = nullable(types.createArrayType(sql(SqlTypeName.VARCHAR), -1));
        Expression widened = converter.convert(rex.makeCast(strings, intArray(0)));
        assertTrue(widened.getCast().getType().getList().getType().hasString(), widened.toString());
        RelDataType tinyints = nullable(types.createArrayType(sql(SqlTypeName.TINYINT), -1));
        String why = reason(rex.makeCast(tinyints, intArray(0)));
        assertTrue(why.startsWith("CAST of a collection's element: narrowing integer CAST"), why);
        RelDataType decimals = nullable(types.createArrayType(nullable(types.createSqlType(SqlTypeName.DECIMAL, 5, 2)), -1));
        String overflow = reason(rex.makeCast(decimals, intArray(0)));
        assertTrue(overflow.contains("gives NULL on overflow"), overflow);
    }
}
