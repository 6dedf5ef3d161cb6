package org.flinkaccelerator.runtime.arrow;

import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRoundTrip;
import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRoundTripThroughIpc;
import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRowsRead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.binary.BinaryStringDataUtil;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every supported type, written from GenericRowData into Arrow and read back as Arrow-backed RowData. */
class ArrowRowBatchRoundTripTest {
    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void closeAllocator() {
        allocator.close(); // fails the test if any Arrow buffer leaked
    }

    private static RowType rowType(String text) {
        return (RowType) LogicalTypeParser.parse(text, ArrowRowBatchRoundTripTest.class.getClassLoader());
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    private static TimestampData ts(String localDateTime) {
        return TimestampData.fromLocalDateTime(LocalDateTime.parse(localDateTime));
    }

    private static GenericArrayData array(Object... elements) {
        return new GenericArrayData(elements);
    }

    private static GenericMapData map(Object... keysAndValues) {
        Map<Object, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return new GenericMapData(map);
    }

    /** The rows, then the same rows as Flink's BinaryRowData (compact TIMESTAMP/DECIMAL encodings). */
    private void assertAllWays(RowType type, List<GenericRowData> rows) {
        assertRoundTrip(allocator, type, rows);
        assertRoundTripThroughIpc(allocator, type, rows);
        RowDataSerializer serializer = new RowDataSerializer(type);
        List<RowData> binary = new ArrayList<>();
        for (GenericRowData row : rows) {
            binary.add(serializer.toBinaryRow(row).copy());
        }
        assertRoundTrip(allocator, type, binary);
    }

    @Test
    void everyAtomicTypeWithBoundaryValuesAndNulls() {
        RowType type = rowType("ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT, l BIGINT, f FLOAT, d DOUBLE,"
                + " c CHAR(3), v VARCHAR(10), str STRING, bin BINARY(2), vb VARBINARY(5), bs BYTES,"
                + " dt DATE, tm TIME(0), tm3 TIME(3), n INT NOT NULL>");
        List<GenericRowData> rows = List.of(
                GenericRowData.of(true, (byte) 1, (short) 2, 3, 4L, 1.5f, 2.5, str("abc"), str("ünïcødé"),
                        str("😀 outside the BMP"), new byte[] {1, 2}, new byte[] {}, new byte[] {0, -1, 127},
                        19_000, 0, 86_399_999, 7),
                GenericRowData.of(false, Byte.MIN_VALUE, Short.MIN_VALUE, Integer.MIN_VALUE, Long.MIN_VALUE,
                        Float.NaN, Double.NEGATIVE_INFINITY, str(""), str(""), str(""), new byte[] {0, 0},
                        new byte[] {9}, new byte[] {}, -719_162, 3_600_000, 45_296_789, Integer.MIN_VALUE),
                GenericRowData.of(true, Byte.MAX_VALUE, Short.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE,
                        -0.0f, Double.MIN_VALUE, str("x"), str("a\u0000b"), str("日本語"), new byte[] {-128, 127},
                        new byte[] {1, 2, 3, 4, 5}, new byte[1000], 2_932_896, 1000, 1, 0),
                GenericRowData.of(null, null, null, null, null, null, null, null, null, null, null, null, null,
                        null, null, null, 42));
        assertAllWays(type, rows);
    }

    @Test
    void stringsBehaveInFlinksStringCodeAsTheStockFormatsStringsDo() {
        // Stock formats make strings from Java text; Flink's string code takes other paths for
        // strings without it: TRIM's single-space test reads one byte (and divides by zero on a
        // copied empty string), compareTo orders UTF-8 bytes instead of UTF-16 units.
        RowType type = rowType("ROW<s STRING, t STRING, r ROW<s STRING, t STRING>, a ARRAY<STRING>,"
                + " m MAP<STRING, STRING>>");
        String[][] pairs = {{"", ""}, {"  ab ", ""}, {"", "a "}, {"xaxb x", " x"}, {" ", " "},
                {"\uff61", "\ud83d\ude00"}, {"\ud83d\ude00 ", "\uff61 "}, {"b", "a"}};
        List<GenericRowData> rows = new ArrayList<>();
        for (String[] pair : pairs) {
            rows.add(GenericRowData.of(str(pair[0]), str(pair[1]), GenericRowData.of(str(pair[0]), str(pair[1])),
                    array(str(pair[0]), str(pair[1])), map(str(pair[0]), str(pair[1]))));
        }
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            rows.forEach(writer::write);
            ArrowRowBatch batch = new ArrowRowBatch(type, writer.finish());
            RowDataSerializer serializer = new RowDataSerializer(type);  // chained operators get copies
            for (int i = 0; i < rows.size(); i++) {
                for (boolean copied : new boolean[] {false, true}) {
                    RowData stock = copied ? serializer.copy(rows.get(i)) : rows.get(i);
                    RowData ours = copied ? serializer.copy(batch.row(i)) : batch.row(i);
                    String where = "row " + i + (copied ? ", copied" : "");
                    assertSameStringBehaviour(where, stock.getString(0), stock.getString(1),
                            ours.getString(0), ours.getString(1));
                    assertSameStringBehaviour(where + ", in a ROW", stock.getRow(2, 2).getString(0),
                            stock.getRow(2, 2).getString(1), ours.getRow(2, 2).getString(0),
                            ours.getRow(2, 2).getString(1));
                    assertSameStringBehaviour(where + ", in an ARRAY", stock.getArray(3).getString(0),
                            stock.getArray(3).getString(1), ours.getArray(3).getString(0),
                            ours.getArray(3).getString(1));
                    assertSameStringBehaviour(where + ", in a MAP", stock.getMap(4).keyArray().getString(0),
                            stock.getMap(4).valueArray().getString(0), ours.getMap(4).keyArray().getString(0),
                            ours.getMap(4).valueArray().getString(0));
                }
            }
        }
    }

    private static void assertSameStringBehaviour(String where, StringData stockS, StringData stockT,
            StringData oursS, StringData oursT) {
        assertEquals(trimmed((BinaryStringData) stockS, (BinaryStringData) stockT),
                trimmed((BinaryStringData) oursS, (BinaryStringData) oursT), where + ": TRIM(BOTH t FROM s)");
        assertEquals(Integer.signum(stockS.compareTo(stockT)), Integer.signum(oursS.compareTo(oursT)),
                where + ": s compared with t");
        assertEquals(stockS.toString(), oursS.toString(), where + ": s");
    }

    /** TRIM(BOTH t FROM s) as Flink's generated code calls it, or the exception it fails with. */
    private static String trimmed(BinaryStringData s, BinaryStringData t) {
        try {
            return BinaryStringDataUtil.trim(s, t).toString();
        } catch (RuntimeException e) {
            return e.toString();
        }
    }

    @Test
    void decimalsUpToPrecision38() {
        RowType type = rowType("ROW<max DECIMAL(38, 0), frac DECIMAL(38, 38), mid DECIMAL(38, 10),"
                + " compact DECIMAL(18, 4), wide DECIMAL(19, 2), one DECIMAL(1, 0), money DECIMAL(10, 2) NOT NULL>");
        String nines = "9".repeat(38);
        List<GenericRowData> rows = new ArrayList<>();
        for (String sign : List.of("", "-")) {
            rows.add(GenericRowData.of(dec(sign + nines, 38, 0), dec(sign + "0." + nines, 38, 38),
                    dec(sign + "9".repeat(28) + "." + "9".repeat(10), 38, 10), dec(sign + "99999999999999.9999", 18, 4),
                    dec(sign + "99999999999999999.99", 19, 2), dec(sign + "9", 1, 0), dec(sign + "12345678.90", 10, 2)));
        }
        rows.add(GenericRowData.of(dec("0", 38, 0), dec("0.00000000000000000000000000000000000001", 38, 38),
                dec("-1.5", 38, 10), dec("0.0001", 18, 4), dec("-0.01", 19, 2), dec("0", 1, 0), dec("0.00", 10, 2)));
        rows.add(GenericRowData.of(null, null, null, null, null, null, dec("-0.01", 10, 2)));
        assertAllWays(type, rows);
    }

    private static DecimalData dec(String value, int precision, int scale) {
        // fromBigDecimal answers null for a value the precision cannot hold: a typo here must not pass as null.
        return Objects.requireNonNull(DecimalData.fromBigDecimal(new BigDecimal(value).setScale(scale), precision, scale),
                value);
    }

    @Test
    void timestampsKeepEveryNanosecondOfEveryValueFlinkHolds() {
        RowType type = rowType("ROW<ts9 TIMESTAMP(9), ts3 TIMESTAMP(3), ts0 TIMESTAMP(0),"
                + " ltz9 TIMESTAMP_LTZ(9), ltz3 TIMESTAMP_LTZ(3), t3 TIME(3)>");
        List<GenericRowData> rows = List.of(
                GenericRowData.of(ts("1969-12-31T23:59:59.999999999"), ts("1969-12-31T23:59:59.999"),
                        ts("1969-12-31T23:59:59"), ts("1900-01-01T00:00:00.000000001"), ts("1960-06-15T12:30:45.123"),
                        time("23:59:59.999")),
                GenericRowData.of(ts("0000-01-01T00:00:00.000000001"), ts("1970-01-01T00:00:00.001"),
                        ts("0000-01-01T00:00"), ts("9999-12-31T23:59:59.999999999"), ts("2024-02-29T08:00:00.5"),
                        time("00:00:00.001")),
                GenericRowData.of(ts("2026-12-02T17:05:04.123456789"), ts("9999-12-31T23:59:59.999"),
                        ts("1677-09-21T00:12:43"), ts("1969-12-31T23:59:59.000000001"), ts("2262-04-12T00:00:00"),
                        time("12:34:56.789")),
                // The extremes of TimestampData itself, which Flink's timestamp arithmetic can reach.
                GenericRowData.of(TimestampData.fromEpochMillis(Long.MIN_VALUE, 0),
                        TimestampData.fromEpochMillis(Long.MAX_VALUE), TimestampData.fromEpochMillis(Long.MIN_VALUE),
                        TimestampData.fromEpochMillis(Long.MAX_VALUE, 999_999), TimestampData.fromEpochMillis(-1),
                        time("00:00")),
                GenericRowData.of(null, null, null, null, null, null));
        assertAllWays(type, rows);
    }

    @Test
    void aTimestampIsTheStructOfItsEpochMillisFlooredAndNanosOfTheMilli() {
        RowType type = rowType("ROW<ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(3)>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            writer.write(GenericRowData.of(ts("1969-12-31T23:59:59.999999999"),
                    TimestampData.fromInstant(java.time.Instant.parse("0000-01-01T00:00:00.001Z"))));
            writer.write(GenericRowData.of(null, null));
            writer.finish();
            StructVector ts = (StructVector) root.getVector("ts");
            StructVector ltz = (StructVector) root.getVector("ltz");
            assertEquals(List.of(-1L, 999_999), parts(ts, 0));
            // 0000-01-01 is 719,528 days before 1970-01-01.
            assertEquals(List.of(-719_528L * 86_400_000L + 1, 0), parts(ltz, 0));
            // A null timestamp is a null struct slot; its NOT NULL children hold 0 there.
            assertTrue(ts.isNull(1) && ltz.isNull(1));
            assertEquals(List.of(0L, 0), parts(ts, 1));
            assertEquals(List.of(0L, 0), parts(ltz, 1));
        }
    }

    private static List<Object> parts(StructVector timestamp, int i) {
        BigIntVector millis = (BigIntVector) timestamp.getChild("millis");
        IntVector nanos = (IntVector) timestamp.getChild("nanos");
        assertTrue(!millis.isNull(i) && !nanos.isNull(i), "children of row " + i + " are set");
        return List.of(millis.get(i), nanos.get(i));
    }

    private static int time(String localTime) {
        return (int) (LocalTime.parse(localTime).toNanoOfDay() / 1_000_000L);
    }

    @Test
    void aTimestamp3ValueHoldingMicrosecondsKeepsThem() {
        // Flink keeps every digit it reads (json "…00.123456" into TIMESTAMP(3)); so does the layout.
        RowType type = rowType("ROW<ts TIMESTAMP(3), ltz TIMESTAMP_LTZ(3)>");
        assertRoundTrip(allocator, type, List.of(GenericRowData.of(
                ts("2020-01-01T00:00:00.123456"), ts("1950-01-01T00:00:00.000789"))));
    }

    @Test
    void arraysWithNullsAtEveryLevelAndEmptyArrays() {
        RowType type = rowType("ROW<ints ARRAY<INT>, strict ARRAY<INT NOT NULL> NOT NULL,"
                + " strs ARRAY<STRING>, nested ARRAY<ARRAY<BIGINT>>, rows ARRAY<ROW<a INT, b STRING>>,"
                + " decs ARRAY<DECIMAL(38, 2)>, times ARRAY<TIMESTAMP(9)>, bins ARRAY<BYTES>>");
        List<GenericRowData> rows = List.of(
                GenericRowData.of(array(1, null, 3), new GenericArrayData(new int[] {4, 5}), array(str("a"), null, str("")),
                        array(array(1L, null), null, array()), array(GenericRowData.of(1, str("x")), null,
                        GenericRowData.of(null, null)), array(dec("-" + "9".repeat(36) + ".99", 38, 2), null),
                        array(ts("1969-12-31T23:59:59.999999999"), null), array(new byte[] {1}, null, new byte[0])),
                GenericRowData.of(array(), array(), array(), array(), array(), array(), array(), array()),
                GenericRowData.of(null, array(Integer.MIN_VALUE), null, null, null, null, null, null),
                GenericRowData.of(array((Object) null), array(0), array((Object) null), array((Object) null),
                        array((Object) null), array((Object) null), array((Object) null), array((Object) null)));
        assertAllWays(type, rows);
    }

    @Test
    void mapsWithNullValuesEmptyMapsAndNestedValues() {
        RowType type = rowType("ROW<m MAP<STRING, INT>, strict MAP<INT NOT NULL, STRING NOT NULL> NOT NULL,"
                + " deep MAP<BIGINT, ARRAY<ROW<x DOUBLE, y MAP<STRING, BYTES>>>>, ts MAP<TIMESTAMP(3), DECIMAL(20, 5)>>");
        List<GenericRowData> rows = List.of(
                GenericRowData.of(map(str("a"), 1, str("b"), null, str(""), 3), map(1, str("one"), -1, str("")),
                        map(7L, array(GenericRowData.of(1.5, map(str("k"), new byte[] {1}, str("n"), null)), null,
                                GenericRowData.of(null, null), GenericRowData.of(2.5, map())), 8L, null, 9L, array()),
                        map(ts("1969-12-31T23:59:59.999"), dec("-123456789012345.12345", 20, 5))),
                GenericRowData.of(map(), map(), map(), map()),
                GenericRowData.of(null, map(0, str("zero")), null, null));
        assertAllWays(type, rows);
    }

    @Test
    void nestedRowsWithNullsAtEveryLevel() {
        RowType type = rowType("ROW<r ROW<a INT, inner ROW<s STRING, l ARRAY<ROW<d DATE, m MAP<STRING, INT>>>>,"
                + " z DECIMAL(38, 0)>, strict ROW<x INT NOT NULL, y ROW<t TIME(3) NOT NULL> NOT NULL> NOT NULL>");
        GenericRowData inner = GenericRowData.of(str("s"), array(GenericRowData.of(-1, map(str("k"), null)), null,
                GenericRowData.of(null, null)));
        List<GenericRowData> rows = List.of(
                GenericRowData.of(GenericRowData.of(1, inner, dec("9".repeat(38), 38, 0)),
                        GenericRowData.of(2, GenericRowData.of(86_399_999))),
                GenericRowData.of(GenericRowData.of(null, GenericRowData.of(null, null), null),
                        GenericRowData.of(0, GenericRowData.of(0))),
                GenericRowData.of(GenericRowData.of(null, null, null), GenericRowData.of(-5, GenericRowData.of(1))),
                GenericRowData.of(null, GenericRowData.of(Integer.MAX_VALUE, GenericRowData.of(1000))));
        assertAllWays(type, rows);
    }

    @Test
    void aNullNestedRowLeavesItsFieldsNullInArrow() {
        RowType type = rowType("ROW<r ROW<a INT, l ARRAY<INT>>>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            writer.write(GenericRowData.of((Object) null));
            writer.finish();
            assertTrue(root.getVector("r").isNull(0));
            assertTrue(root.getVector("r").getChildrenFromFields().get(0).isNull(0));
            assertTrue(root.getVector("r").getChildrenFromFields().get(1).isNull(0));
        }
    }

    @Test
    void theSchemaIsTheSidecarsLayout() {
        RowType type = rowType("ROW<i INT NOT NULL, ts TIMESTAMP(9), ltz TIMESTAMP_LTZ(3), t TIME(3), d DECIMAL(38, 4),"
                + " a ARRAY<STRING NOT NULL>, m MAP<STRING, BIGINT>, r ROW<x DATE>>");
        List<String> fields = ArrowTypes.schema(type).getFields().stream().map(Field::toString).toList();
        assertEquals(List.of("i: Int(32, true) not null",
                "ts: Struct<millis: Int(64, true) not null, nanos: Int(32, true) not null>",
                "ltz: Struct<millis: Int(64, true) not null, nanos: Int(32, true) not null>", "t: Time(MILLISECOND, 32)", "d: Decimal(38, 4, 128)",
                "a: List<element: Utf8 not null>", "m: Map(false)<entries: Struct<key: Utf8 not null, value: Int(64, true)>"
                        + " not null>", "r: Struct<x: Date(DAY)>"), fields);
    }

    @Test
    void theWriterIsReusedAndTheViewFollowsItsRoot() {
        RowType type = rowType("ROW<s STRING, a ARRAY<INT>, m MAP<INT, STRING>>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            ArrowRowBatch view = new ArrowRowBatch(type, root);
            for (int batch = 0; batch < 3; batch++) {
                List<GenericRowData> rows = new ArrayList<>();
                for (int i = 0; i < 100 * (3 - batch); i++) {
                    rows.add(i % 7 == 0 ? GenericRowData.of(null, null, null) : GenericRowData.of(
                            str("batch " + batch + " row " + i), array(i, batch), map(i, str("v" + batch))));
                }
                writer.reset();
                rows.forEach(writer::write);
                writer.finish();
                assertRowsRead(type, rows, root);
                assertEquals(rows.size(), view.rowCount());
                assertEquals(rows.get(1).getString(0), view.reusedRow(1).getString(0));
            }
        }
    }

    @Test
    void buffersGrowPastTheirFirstAllocation() {
        RowType type = rowType("ROW<i INT NOT NULL, dt DATE, tm TIME(3), s STRING, a ARRAY<INT>>");
        List<GenericRowData> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(GenericRowData.of(i, i % 5 == 0 ? null : -i, i % 86_400_000, str("row " + i),
                    i % 3 == 0 ? null : array(i, -i, null)));
        }
        assertRoundTrip(allocator, type, rows);
    }

    @Test
    void anEmptyBatchHasNoRows() {
        RowType type = rowType("ROW<a ARRAY<INT>, m MAP<STRING, INT>, r ROW<x INT>>");
        assertRoundTrip(allocator, type, List.of());
        assertRoundTripThroughIpc(allocator, type, List.of());
    }

    @Test
    void rowsAreReadInPlaceNotCopied() {
        RowType type = rowType("ROW<i INT, a ARRAY<INT>>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            writer.write(GenericRowData.of(1, array(10, 20)));
            writer.finish();
            RowData row = new ArrowRowBatch(type, root).row(0);
            RowData.FieldGetter array = RowData.createFieldGetter(type.getTypeAt(1), 1);
            ((IntVector) root.getVector("i")).set(0, 2);
            ((IntVector) root.getVector("a").getChildrenFromFields().get(0)).set(1, 21);
            assertEquals(2, row.getInt(0));
            assertEquals(21, ((org.apache.flink.table.data.ArrayData) array.getFieldOrNull(row)).getInt(1));
        }
    }

    @Test
    void aBatchInAnotherLayoutIsRefusedNamingTheColumn() {
        RowType type = rowType("ROW<ts TIMESTAMP(6)>");
        try (TimeStampMicroVector micros = new TimeStampMicroVector("ts", allocator);
                VectorSchemaRoot root = VectorSchemaRoot.of(micros)) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> new ArrowRowBatch(type, root));
            assertTrue(e.getMessage().contains("'ts'") && e.getMessage().contains("Timestamp(MICROSECOND, null)")
                    && e.getMessage().contains("Struct"), e.getMessage());
        }
    }

    @Test
    void aTimestampStructWithOtherChildrenIsRefused() {
        RowType type = rowType("ROW<ts TIMESTAMP(3)>");
        Field wrong = new Field("ts", FieldType.nullable(ArrowType.Struct.INSTANCE), List.of(
                new Field("millis", FieldType.notNullable(new ArrowType.Int(64, true)), List.of()),
                new Field("nanos", FieldType.notNullable(new ArrowType.Int(64, true)), List.of())));
        try (VectorSchemaRoot root = VectorSchemaRoot.create(new Schema(List.of(wrong)), allocator)) {
            Exception e = assertThrows(IllegalArgumentException.class, () -> new ArrowRowBatch(type, root));
            assertTrue(e.getMessage().contains("'ts'") && e.getMessage().contains("nanos: Int(64, true)"),
                    e.getMessage());
        }
    }

    @Test
    void aNullMapKeyIsRefusedNamingTheFieldAndRow() {
        RowType type = rowType("ROW<i INT, m MAP<STRING, INT>>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            writer.write(GenericRowData.of(1, map(str("a"), 1)));
            Exception e = assertThrows(IllegalArgumentException.class,
                    () -> writer.write(GenericRowData.of(2, map(null, 1))));
            assertTrue(e.getMessage().contains("'m'") && e.getMessage().contains("row 1")
                    && e.getMessage().contains("null key"), e.getMessage());
        }
    }

    @Test
    void aTypeWithoutASharedLayoutIsRefusedByName() {
        LogicalType multiset = LogicalTypeParser.parse("MULTISET<INT>", getClass().getClassLoader());
        Exception e = assertThrows(IllegalArgumentException.class, () -> ArrowTypes.field("bag", multiset));
        assertTrue(e.getMessage().contains("'bag'") && e.getMessage().contains("MULTISET"), e.getMessage());
    }

    @Test
    void stringsAreUtf8InArrow() {
        RowType type = rowType("ROW<s STRING>");
        try (VectorSchemaRoot root = RowDataArrowWriter.createRoot(type, allocator)) {
            RowDataArrowWriter writer = new RowDataArrowWriter(type, root);
            writer.write(GenericRowData.of(str("ü😀")));
            writer.finish();
            assertEquals(Arrays.toString("ü😀".getBytes(StandardCharsets.UTF_8)),
                    Arrays.toString(((org.apache.arrow.vector.VarCharVector) root.getVector("s")).get(0)));
        }
    }
}
