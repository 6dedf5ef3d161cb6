package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.formats.common.TimestampFormat;
import org.apache.flink.formats.json.JsonParserRowDataDeserializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.util.Collector;
import org.flinkaccelerator.runtime.arrow.FlinkDataAssertions;
import org.junit.jupiter.api.Test;

/**
 * A rows stage in Flink's operator harness with a real sidecar running the golden descriptors
 * substrait-plans/rows_*.json: json message bytes in, Arrow-backed rows out, compared field by
 * field with what Flink's own json deserializer makes of the same messages, each row carrying
 * its message's record timestamp.
 */
class AcceleratedOperatorRowsTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();
    private static final Duration LONG = Duration.ofMinutes(10);

    /** Bids with nulls, unicode, sub-millisecond timestamps, a missing field, extremes and a tombstone. */
    private static final List<String> BIDS = List.of(
            "{\"auction\": 1, \"bidder\": 7, \"price\": 50, \"channel\": \"Apple\", \"url\": \"https://x/?q=1\","
                    + " \"dateTime\": \"2026-01-01 00:00:01.123\", \"extra\": \"\"}",
            "{\"auction\": 2, \"price\": 500, \"channel\": \"\u00fcn\u00efcode \u2713 \\ud83d\\ude00\","
                    + " \"dateTime\": \"2026-01-01 00:00:02.123456789\"}",
            "{\"auction\": null, \"bidder\": -9223372036854775808, \"price\": 9223372036854775807}",
            "{}",
            "{\"price\": 101, \"channel\": null, \"extra\": \"x\\ny\", \"url\": 12.5}");

    private static JsonNode golden(String name) throws Exception {
        return new ObjectMapper().readTree(Files.readString(GOLDEN.resolve(name + ".json"), StandardCharsets.UTF_8));
    }

    /** The row type of a rows descriptor's output fields, without the message index. */
    private static RowType rowsType(JsonNode descriptor) {
        List<String> fields = new ArrayList<>();
        for (JsonNode field : descriptor.path("output").path("fields")) {
            if (!field.path("name").asText().equals("$message")) {
                fields.add("`" + field.path("name").asText().replace("`", "``") + "` " + field.path("type").asText());
            }
        }
        return (RowType) LogicalTypeParser.parse("ROW<" + String.join(", ", fields) + ">",
                AcceleratedOperatorRowsTest.class.getClassLoader());
    }

    private static OneInputStreamOperatorTestHarness<RowData, RowData> harness(JsonNode descriptor, int batchSize)
            throws Exception {
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec(descriptor.path("name").asText(),
                descriptor.toString(), System.getProperty("accelerator.test.python", "python3"), batchSize, Long.MAX_VALUE, LONG,
                LONG, LONG, RecordCoordinates.Layout.NONE, rowsType(descriptor), null, null, null);
        return new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec));
    }

    /** What stock Flink's json format (defaults of 'format' = 'json') decodes from each message. */
    private static List<RowData> flinkDecoded(RowType rowType, List<String> messages) throws Exception {
        JsonParserRowDataDeserializationSchema flink = new JsonParserRowDataDeserializationSchema(rowType,
                InternalTypeInfo.of(rowType), false, false, TimestampFormat.SQL);
        flink.open(null);
        List<RowData> rows = new ArrayList<>();
        for (String message : messages) {
            flink.deserialize(message == null ? null : message.getBytes(StandardCharsets.UTF_8), new Collector<>() {
                @Override
                public void collect(RowData row) {
                    rows.add(row);
                }

                @Override
                public void close() {}
            });
        }
        return rows;
    }

    /**
     * Sends each bid (timestamp 1000 * its index) through a rows stage; returns the records it
     * emitted, each copied by Flink's serializer when emitted, as a chained operator's input is
     * (the rows are views of the sidecar's batch, valid while it is being emitted).
     */
    private static List<StreamRecord<RowData>> run(JsonNode descriptor, int batchSize) throws Exception {
        return run(descriptor, batchSize, false);
    }

    /**
     * With {@code objectReuse}, Flink hands the next operator the emitted row itself, which it may
     * keep: the harness then keeps each record's row as it was emitted, without copying it.
     */
    private static List<StreamRecord<RowData>> run(JsonNode descriptor, int batchSize, boolean objectReuse)
            throws Exception {
        List<StreamRecord<RowData>> out = new ArrayList<>();
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness = harness(descriptor, batchSize)) {
            if (objectReuse) {
                harness.getExecutionConfig().enableObjectReuse();
                harness.setup(new RowDataSerializer(rowsType(descriptor)) {
                    @Override
                    public RowData copy(RowData from) {
                        return from;  // what the next operator keeps under object reuse
                    }
                });
            } else {
                harness.setup(new RowDataSerializer(rowsType(descriptor)));
            }
            harness.open();
            for (int i = 0; i < BIDS.size(); i++) {
                harness.processElement(new StreamRecord<>(GenericRowData.of((Object) BIDS.get(i)
                        .getBytes(StandardCharsets.UTF_8)), 1000L * i));
            }
            harness.endInput();
            for (Object o : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                StreamRecord<RowData> record = (StreamRecord<RowData>) o;
                out.add(record);
            }
        }
        return out;
    }

    /** Asserts the records hold the expected rows, in order, each with the expected timestamp. */
    private static void assertRecords(RowType rowType, List<StreamRecord<RowData>> expected,
            List<StreamRecord<RowData>> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            FlinkDataAssertions.assertRowEquals(rowType, expected.get(i).getValue(), actual.get(i).getValue(), "row " + i);
            assertEquals(expected.get(i).getTimestamp(), actual.get(i).getTimestamp(), "row " + i + " timestamp");
        }
    }

    @Test
    void aDecodingStageEmitsWhatFlinksJsonFormatDecodesWithEachMessagesTimestamp() throws Exception {
        JsonNode descriptor = golden("rows_regexp");
        RowType rowType = rowsType(descriptor);
        List<RowData> expected = flinkDecoded(rowType, BIDS);
        for (int batchSize : new int[] {1, 3, 100}) {
            List<StreamRecord<RowData>> actual = run(descriptor, batchSize);
            assertEquals(expected.size(), actual.size(), "rows at batch size " + batchSize);
            for (int i = 0; i < expected.size(); i++) {
                FlinkDataAssertions.assertRowEquals(rowType, expected.get(i), actual.get(i).getValue(),
                        "batch size " + batchSize + ", row " + i);
                assertTrue(actual.get(i).hasTimestamp());
                assertEquals(1000L * i, actual.get(i).getTimestamp(), "row " + i + " has its message's timestamp");
            }
        }
    }

    @Test
    void withObjectReuseTheRowsTheNextOperatorKeepsStayTheRowsItWasGiven() throws Exception {
        JsonNode descriptor = golden("rows_regexp");
        RowType rowType = rowsType(descriptor);
        List<RowData> expected = flinkDecoded(rowType, BIDS);
        List<StreamRecord<RowData>> actual = run(descriptor, 100, true);
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            FlinkDataAssertions.assertRowEquals(rowType, expected.get(i), actual.get(i).getValue(), "row " + i);
        }
    }

    @Test
    void aFilteringStageKeepsEachRowWithItsOwnMessagesTimestamp() throws Exception {
        JsonNode descriptor = golden("rows_group_aggregate");
        RowType decodedType = (RowType) LogicalTypeParser.parse(descriptor.path("decode").path("row_type").asText(),
                getClass().getClassLoader());
        List<RowData> decoded = flinkDecoded(decodedType, BIDS);
        int price = decodedType.getFieldIndex("price");
        int channel = decodedType.getFieldIndex("channel");
        List<StreamRecord<RowData>> expected = new ArrayList<>();
        for (int i = 0; i < decoded.size(); i++) {
            RowData row = decoded.get(i);
            if (!row.isNullAt(price) && row.getLong(price) > 100) { // the query's WHERE price > 100
                StringData channelValue = row.isNullAt(channel) ? null : row.getString(channel);
                expected.add(new StreamRecord<>(GenericRowData.of(channelValue, row.getLong(price) * 2), 1000L * i));
            }
        }
        assertTrue(expected.size() >= 2 && expected.size() < BIDS.size(), "the filter must keep some rows and drop some");
        assertRecords(rowsType(descriptor), expected, run(descriptor, 100));
    }

    @Test
    void aSharedSourcesStageEmitsEachBranchOnItsOwnOutputWithEachMessagesTimestamp() throws Exception {
        JsonNode descriptor = golden("rows_shared_source");
        RowType decodedType = (RowType) LogicalTypeParser.parse(descriptor.path("decode").path("row_type").asText(),
                getClass().getClassLoader());
        List<RowData> decoded = flinkDecoded(decodedType, BIDS);
        int auction = decodedType.getFieldIndex("auction");
        int price = decodedType.getFieldIndex("price");
        int channel = decodedType.getFieldIndex("channel");
        // The two sides of the golden's UNION ALL, as Flink evaluates them on Flink's decoded rows.
        List<StreamRecord<RowData>> expensive = new ArrayList<>();
        List<StreamRecord<RowData>> notB = new ArrayList<>();
        for (int i = 0; i < decoded.size(); i++) {
            RowData row = decoded.get(i);
            Long auctionValue = row.isNullAt(auction) ? null : row.getLong(auction);
            if (!row.isNullAt(price) && row.getLong(price) > 100) {
                expensive.add(new StreamRecord<>(GenericRowData.of(auctionValue, row.getLong(price) * 2), 1000L * i));
            }
            if (!row.isNullAt(channel) && !row.getString(channel).toString().equals("b")) {
                notB.add(new StreamRecord<>(GenericRowData.of(auctionValue, row.isNullAt(price) ? null
                        : row.getLong(price) + 1), 1000L * i));
            }
        }
        assertTrue(expensive.size() >= 2 && notB.size() >= 2 && expensive.size() + notB.size() < 2 * BIDS.size());
        RowType mainType = rowsType(descriptor);
        RowType sideType = rowsType(descriptor.path("branches").get(0));
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec("bid-rows", descriptor.toString(),
                System.getProperty("accelerator.test.python", "python3"), 2, Long.MAX_VALUE, LONG, LONG, LONG,
                RecordCoordinates.Layout.NONE, mainType, null, null, null, List.of(sideType), Long.MAX_VALUE);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec))) {
            harness.setup(new RowDataSerializer(mainType));
            harness.open();
            for (int i = 0; i < BIDS.size(); i++) {
                harness.processElement(new StreamRecord<>(GenericRowData.of((Object) BIDS.get(i)
                        .getBytes(StandardCharsets.UTF_8)), 1000L * i));
            }
            harness.endInput();
            List<StreamRecord<RowData>> main = new ArrayList<>();
            for (Object o : harness.getOutput()) {
                @SuppressWarnings("unchecked")
                StreamRecord<RowData> record = (StreamRecord<RowData>) o;
                main.add(record);
            }
            assertRecords(mainType, expensive, main);
            assertRecords(sideType, notB, new ArrayList<>(harness.getSideOutput(spec.sideOutput(1))));
        }
    }

    @Test
    void anAnswerThatIsNotTheRowTypeFailsNamingTheOperator() throws Exception {
        JsonNode descriptor = golden("rows_regexp");
        String wrongType = descriptor.toString();
        RowType declared = (RowType) LogicalTypeParser.parse("ROW<`auction` STRING>", getClass().getClassLoader());
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec("bid-rows", wrongType,
                System.getProperty("accelerator.test.python", "python3"), 1, Long.MAX_VALUE, LONG, LONG, LONG,
                RecordCoordinates.Layout.NONE, declared, null, null, null);
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec))) {
            harness.open();
            Exception e = assertThrows(RuntimeException.class, () -> harness.processElement(
                    new StreamRecord<>(GenericRowData.of((Object) BIDS.get(0).getBytes(StandardCharsets.UTF_8)))));
            assertTrue(e.getMessage().startsWith("Accelerated[bid-rows]: the sidecar's answer"), e.getMessage());
        }
    }
}
