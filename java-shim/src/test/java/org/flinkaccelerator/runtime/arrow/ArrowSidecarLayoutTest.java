package org.flinkaccelerator.runtime.arrow;

import static org.flinkaccelerator.runtime.arrow.ArrowRoundTrip.assertRowsRead;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.sidecar.TestPython;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch the Python side builds with the sidecar's own type mapping (accelerator.formats.types:
 * the row type text Java sends, parsed and mapped by {@code to_arrow_schema}) from Python values,
 * read here as Arrow-backed RowData: the schema must be exactly {@link ArrowTypes}' and every value
 * the Flink value of the same datum.
 */
class ArrowSidecarLayoutTest {
    private static final String ROW_TYPE = "ROW<b BOOLEAN, t TINYINT, s SMALLINT, i INT NOT NULL, l BIGINT, f FLOAT,"
            + " d DOUBLE, c CHAR(3), v STRING, bin VARBINARY(4), dt DATE, tm TIME(3), ts TIMESTAMP(9),"
            + " ltz TIMESTAMP_LTZ(3), big DECIMAL(38, 2), small DECIMAL(10, 4), arr ARRAY<INT>,"
            + " m MAP<STRING, BIGINT>, r ROW<x INT, inner ROW<s STRING, l ARRAY<ARRAY<DOUBLE>>>>>";

    /**
     * Python values of the rows below, written with pyarrow under the sidecar's schema; timestamps
     * are Python ints of epoch nanoseconds (datetime has neither nanoseconds nor the year 0000),
     * made columns by the sidecar's own accelerator.formats.timestamps.
     */
    private static final String SCRIPT = """
            import sys
            from datetime import date, datetime, time, timedelta, timezone
            from decimal import Decimal
            import pyarrow as pa
            from accelerator.formats import timestamps, types

            def nanos(dt):
                return (dt - datetime(1970, 1, 1, tzinfo=dt.tzinfo)) // timedelta(microseconds=1) * 1000

            schema = types.to_arrow_schema(types.parse(sys.argv[1]))
            rows = [
                dict(b=True, t=-128, s=32767, i=-5, l=2**63 - 1, f=1.5, d=-2.25, c="abc", v="ünï😀",
                     bin=b"\\x00\\xff", dt=date(1969, 12, 31), tm=time(23, 59, 59, 999000),
                     ts=nanos(datetime(1969, 12, 31, 23, 59, 59, 999999)) + 999,
                     ltz=nanos(datetime(2024, 2, 29, 12, 0, 0, 123000, tzinfo=timezone.utc)),
                     big=Decimal("-" + "9" * 36 + ".99"), small=Decimal("123456.7891"), arr=[1, None, 3],
                     m=[("a", 1), ("b", None)], r=dict(x=7, inner=dict(s="deep", l=[[1.5, None], [], None]))),
                dict(i=0, arr=[], m=[], r=dict(x=None, inner=None)),
                # 0000-01-01 is 719,528 days before 1970-01-01.
                dict(i=2**31 - 1, b=False, dt=date(9999, 12, 31), ts=-719_528 * 86_400 * 10**9 + 1,
                     ltz=nanos(datetime(9999, 12, 31, 23, 59, 59, 999000, tzinfo=timezone.utc)),
                     big=Decimal("0.01"), small=Decimal("-0.0001")),
            ]
            columns = []
            for field in schema:
                values = [row.get(field.name) for row in rows]
                columns.append(timestamps.from_epoch_nanos(values) if field.name in ("ts", "ltz")
                               else pa.array(values, field.type))
            batch = pa.RecordBatch.from_arrays(columns, schema=schema)
            with pa.ipc.new_file(sys.argv[2], schema) as out:
                out.write_batch(batch)
            """;

    @Test
    void aBatchTheSidecarWritesIsReadAsTheSameFlinkValues(@TempDir Path dir) throws Exception {
        RowType type = (RowType) LogicalTypeParser.parse(ROW_TYPE, getClass().getClassLoader());
        Path file = dir.resolve("batch.arrow");
        Process python = new ProcessBuilder(TestPython.path(), "-c", SCRIPT, type.asSerializableString(),
                file.toString()).redirectErrorStream(true).start();
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(60, TimeUnit.SECONDS), "python did not finish");
        assertEquals(0, python.exitValue(), "python failed: " + output);

        try (BufferAllocator allocator = new RootAllocator();
                FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
                ArrowFileReader reader = new ArrowFileReader(channel, allocator)) {
            assertTrue(reader.loadNextBatch());
            assertEquals(ArrowTypes.schema(type), reader.getVectorSchemaRoot().getSchema(),
                    "the sidecar's schema for " + type.asSerializableString());
            assertRowsRead(type, expectedRows(), reader.getVectorSchemaRoot());
        }
    }

    private static List<GenericRowData> expectedRows() {
        Map<Object, Object> m = new LinkedHashMap<>();
        m.put(str("a"), 1L);
        m.put(str("b"), null);
        GenericRowData inner = GenericRowData.of(str("deep"), new GenericArrayData(new Object[] {
                new GenericArrayData(new Object[] {1.5, null}), new GenericArrayData(new Object[0]), null}));
        GenericRowData first = GenericRowData.of(true, (byte) -128, (short) 32767, -5, Long.MAX_VALUE, 1.5f, -2.25,
                str("abc"), str("ünï😀"), new byte[] {0, -1}, -1, 86_399_999,
                TimestampData.fromLocalDateTime(LocalDateTime.parse("1969-12-31T23:59:59.999999999")),
                TimestampData.fromInstant(Instant.parse("2024-02-29T12:00:00.123Z")),
                dec("-" + "9".repeat(36) + ".99", 38, 2), dec("123456.7891", 10, 4),
                new GenericArrayData(new Object[] {1, null, 3}), new GenericMapData(m), GenericRowData.of(7, inner));
        GenericRowData second = new GenericRowData(19);
        second.setField(3, 0);
        second.setField(16, new GenericArrayData(new Object[0]));
        second.setField(17, new GenericMapData(Map.of()));
        second.setField(18, GenericRowData.of(null, null));
        GenericRowData third = new GenericRowData(19);
        third.setField(0, false);
        third.setField(3, Integer.MAX_VALUE);
        third.setField(10, 2_932_896); // 9999-12-31 in days since 1970-01-01
        third.setField(12, TimestampData.fromLocalDateTime(LocalDateTime.parse("0000-01-01T00:00:00.000000001")));
        third.setField(13, TimestampData.fromInstant(Instant.parse("9999-12-31T23:59:59.999Z")));
        third.setField(14, dec("0.01", 38, 2));
        third.setField(15, dec("-0.0001", 10, 4));
        return List.of(first, second, third);
    }

    private static StringData str(String s) {
        return StringData.fromString(s);
    }

    private static DecimalData dec(String value, int precision, int scale) {
        return DecimalData.fromBigDecimal(new BigDecimal(value), precision, scale);
    }
}
