package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonFormatOptions;
import org.apache.flink.formats.json.JsonRowDataSerializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * An encode stage in Flink's operator harness with a real sidecar running the golden descriptors
 * substrait-plans/encode_*.json: a stock operator's rows in, message bytes out, compared byte for
 * byte with what Flink's own json serializer writes for the sink's rows.
 */
class AcceleratedOperatorEncodeTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();
    private static final Duration LONG = Duration.ofMinutes(10);

    private static JsonNode golden(String name) throws Exception {
        return new ObjectMapper().readTree(Files.readString(GOLDEN.resolve(name + ".json"), StandardCharsets.UTF_8));
    }

    private static RowType parse(String type) {
        return (RowType) LogicalTypeParser.parse(type, AcceleratedOperatorEncodeTest.class.getClassLoader());
    }

    /** The row type of an encode descriptor's input fields. */
    private static RowType inputType(JsonNode descriptor) {
        List<String> fields = new ArrayList<>();
        for (JsonNode field : descriptor.path("input").path("fields")) {
            fields.add("`" + field.path("name").asText().replace("`", "``") + "` " + field.path("type").asText());
        }
        return parse("ROW<" + String.join(", ", fields) + ">");
    }

    private static OneInputStreamOperatorTestHarness<RowData, RowData> harness(JsonNode descriptor, int batchSize,
            BitSet keepsLoneSurrogates) throws Exception {
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec(descriptor.path("name").asText(),
                descriptor.toString(), System.getProperty("accelerator.test.python", "python3"), batchSize, Long.MAX_VALUE, LONG,
                LONG, LONG, RecordCoordinates.Layout.NONE, null, inputType(descriptor), keepsLoneSurrogates, null);
        return new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec));
    }

    /** What Flink's json format (defaults of 'format' = 'json') writes for each row of {@code sinkRow}. */
    private static List<String> flinkEncoded(RowType sinkRow, List<RowData> rows) throws Exception {
        JsonRowDataSerializationSchema flink = new JsonRowDataSerializationSchema(sinkRow, TimestampFormat.SQL,
                JsonFormatOptions.MapNullKeyMode.FAIL, "null", false, false);
        flink.open(null);
        List<String> out = new ArrayList<>();
        for (RowData row : rows) {
            out.add(new String(flink.serialize(row), StandardCharsets.UTF_8));
        }
        return out;
    }

    private static List<String> run(JsonNode descriptor, List<RowData> rows, int batchSize, BitSet keepsLoneSurrogates)
            throws Exception {
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(descriptor, batchSize,
                keepsLoneSurrogates)) {
            harness.open();
            for (RowData row : rows) {
                harness.processElement(new StreamRecord<>(row, 1L));
            }
            harness.endInput();
            List<String> out = new ArrayList<>();
            for (Object o : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                RowData row = ((StreamRecord<RowData>) o).getValue();
                out.add(new String(row.getBinary(0), StandardCharsets.UTF_8));
            }
            return out;
        }
    }

    /** Strings as Flink's operators hand them on: Java strings, stored UTF-8, malformed bytes from a cast, null. */
    private static List<RowData> lines() {
        return List.of(
                GenericRowData.of(StringData.fromString("plain")),
                GenericRowData.of(StringData.fromString("\u00fcn\u00efcode \u2713 \ud83d\ude00 what? \"q\" \\ \n\t\u0001")),
                GenericRowData.of(StringData.fromBytes("caf\u00e9 ? stored".getBytes(StandardCharsets.UTF_8))),
                GenericRowData.of(StringData.fromBytes(new byte[] {'a', (byte) 0xC3, '?', (byte) 0xFF, (byte) 0xE2,
                        (byte) 0x82, 'b', (byte) 0xF0, (byte) 0x9F, (byte) 0x98})),
                GenericRowData.of((Object) null),
                GenericRowData.of(StringData.fromString("")),
                GenericRowData.of(StringData.fromString("lone \uD800 and \uDFFF, a pair \uD83D\uDE00, \uDC00\uD800 reversed")),
                GenericRowData.of(StringData.fromString("\uDBFF")));
    }

    @Test
    void rowsAreEncodedAsFlinksJsonSerializerWritesThem() throws Exception {
        JsonNode descriptor = golden("encode_only");
        List<RowData> rows = lines();
        List<String> expected = flinkEncoded(parse(descriptor.path("encode").path("row_type").asText()), rows);
        BitSet kept = new BitSet();
        kept.set(0); // the planner lets a column only the encoder reads carry lone surrogates
        assertEquals(expected, run(descriptor, rows, 4, kept), "batches of 4: full ones and the rest at end of input");
    }

    @Test
    void theCalcsItTookOverRunBeforeTheEncoding() throws Exception {
        JsonNode descriptor = golden("encode_join");
        // The join's rows (id, seller, category, id0, name) and what the Calc makes of them.
        List<RowData> joined = List.of(
                GenericRowData.of(1L, 7L, 3L, 7L, StringData.fromString("alice")),
                GenericRowData.of(2L, 8L, 1L, 8L, null),
                GenericRowData.of(3L, 9L, null, 9L, StringData.fromString("b?\u00e9")));
        List<RowData> calculated = List.of(
                GenericRowData.of(StringData.fromString("ALICE"), 10L, true),
                GenericRowData.of(null, 20L, false),
                GenericRowData.of(StringData.fromString("B?\u00c9"), 30L, null));
        List<String> expected = flinkEncoded(parse(descriptor.path("encode").path("row_type").asText()), calculated);
        assertEquals(expected, run(descriptor, joined, 100, null));
    }

    @Test
    void aWindowAggregatesTimestampsOfEveryYearAreEncodedAsFlinksJsonSerializerWritesThem() throws Exception {
        JsonNode descriptor = golden("encode_window_aggregate");
        // The window aggregate's rows (page, cnt, window_start, window_end) and what the Calc makes of them.
        List<String> starts = List.of("0000-01-01T00:00", "1969-12-31T23:59:59.999", "1970-01-01T00:00",
                "2262-04-12T00:00", "9999-12-31T23:58:59.999");
        List<RowData> windows = new ArrayList<>();
        List<RowData> calculated = new ArrayList<>();
        for (int i = 0; i < starts.size(); i++) {
            TimestampData start = TimestampData.fromLocalDateTime(LocalDateTime.parse(starts.get(i)));
            TimestampData end = TimestampData.fromEpochMillis(start.getMillisecond() + 60_000);
            StringData page = i == 2 ? null : StringData.fromString("page " + i);
            windows.add(GenericRowData.of(page, (long) i, start, end));
            calculated.add(GenericRowData.of(i == 2 ? null : StringData.fromString("PAGE " + i), start, i * 10L, i > 2));
        }
        List<String> expected = flinkEncoded(parse(descriptor.path("encode").path("row_type").asText()), calculated);
        assertEquals(expected, run(descriptor, windows, 2, null));
    }

    @Test
    void eachMessageKeepsTheChangeKindOfItsRowForAnUpsertSink() throws Exception {
        JsonNode descriptor = golden("encode_only");
        RowKind[] kinds = {RowKind.INSERT, RowKind.INSERT, RowKind.INSERT, RowKind.UPDATE_BEFORE,
                RowKind.UPDATE_AFTER, RowKind.DELETE, RowKind.INSERT, RowKind.DELETE, RowKind.UPDATE_AFTER};
        List<RowData> rows = new ArrayList<>();
        for (int i = 0; i < kinds.length; i++) {
            rows.add(GenericRowData.ofKind(kinds[i], StringData.fromString("row " + i)));
        }
        List<String> expected = flinkEncoded(parse(descriptor.path("encode").path("row_type").asText()), rows);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(descriptor, 3, null)) {
            harness.open();
            for (RowData row : rows) {
                harness.processElement(new StreamRecord<>(row, 1L));
            }
            harness.endInput();
            List<RowKind> outKinds = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (Object o : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                RowData row = ((StreamRecord<RowData>) o).getValue();
                outKinds.add(row.getRowKind());
                values.add(new String(row.getBinary(0), StandardCharsets.UTF_8));
            }
            assertEquals(List.of(kinds), outKinds, "batches of 3, an insert-only one among them");
            assertEquals(expected, values, "the sink, not the stage, turns a delete into a tombstone");
        }
    }

    @Test
    void aLoneSurrogateInAColumnThatRefusesThemFailsNamingTheOperatorAndTheWayOut() throws Exception {
        JsonNode descriptor = golden("encode_only");
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(descriptor, 10, null)) {
            harness.open();
            Exception e = assertThrows(RuntimeException.class, () -> harness.processElement(
                    new StreamRecord<>(GenericRowData.of(StringData.fromString("a\uDC00b")))));
            assertTrue(e.getMessage().startsWith("Accelerated[out_lines-encode]: "), e.getMessage());
            assertTrue(e.getMessage().contains("lone UTF-16 surrogate"), e.getMessage());
            assertTrue(e.getMessage().contains("accelerator.enabled: false"), e.getMessage());
        }
    }
}
