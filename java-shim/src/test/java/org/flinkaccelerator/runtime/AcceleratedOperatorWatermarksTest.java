package org.flinkaccelerator.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.runtime.splits.KafkaSplitMarkers;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;
import org.junit.jupiter.api.Test;

/**
 * A watermarked rows stage in Flink's operator harness with a real sidecar running the golden
 * descriptor substrait-plans/rows_watermark.json ({@code dateTime - INTERVAL '4' SECOND},
 * {@code on-event}, a filter on the price): what the next operator sees, rows and watermarks in
 * order, is what Flink's Kafka source and Calc emit for the same messages.
 */
class AcceleratedOperatorWatermarksTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();
    private static final Duration LONG = Duration.ofMinutes(10);
    /** value, partition, offset: the raw source's row for a table of topic "bids". */
    private static final RecordCoordinates.Layout LAYOUT = new RecordCoordinates.Layout("bids", -1, 1, 2);
    private static final KafkaSplitMarkers MARKERS = new KafkaSplitMarkers(LAYOUT, 3);
    /** 2026-01-01T00:00:00 UTC in epoch milliseconds. */
    private static final long T0 = 1767225600000L;

    private static StreamRecord<RowData> bid(int partition, long offset, long price, int second) {
        String json = "{\"auction\": " + offset + ", \"price\": " + price + ", \"channel\": \"c\","
                + " \"dateTime\": \"2026-01-01 00:00:" + String.format("%02d", second) + "\"}";
        return new StreamRecord<>(GenericRowData.of(json.getBytes(StandardCharsets.UTF_8), partition, offset),
                7000L + offset);
    }

    @Test
    void rowsAndWatermarksComeOutInTheOrderFlinksSourceEmitsThem() throws Exception {
        JsonNode descriptor = new ObjectMapper().readTree(Files.readString(GOLDEN.resolve("rows_watermark.json"),
                StandardCharsets.UTF_8));
        List<String> fields = new ArrayList<>();
        for (JsonNode field : descriptor.path("output").path("fields")) {
            if (!field.path("name").asText().equals("$message")) {
                fields.add("`" + field.path("name").asText() + "` " + field.path("type").asText());
            }
        }
        RowType rows = (RowType) LogicalTypeParser.parse("ROW<" + String.join(", ", fields) + ">",
                getClass().getClassLoader());
        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec("bid-rows", descriptor.toString(),
                System.getProperty("accelerator.test.python", "python3"), 100, Long.MAX_VALUE, LONG, LONG, LONG, LAYOUT, rows, null,
                null, new WatermarkSpec(true, Duration.ZERO));
        List<String> seen = new ArrayList<>();
        try (OneInputStreamOperatorTestHarness<RowData, RowData> harness =
                new OneInputStreamOperatorTestHarness<>(new AcceleratedOperator(spec))) {
            harness.setup(new RowDataSerializer(rows)); // the harness copies each row it is given, as a task's serializer would
            harness.open();
            harness.processElement(new StreamRecord<>(MARKERS.added("bids-0")));
            harness.processElement(new StreamRecord<>(MARKERS.added("bids-1")));
            harness.processElement(bid(0, 0, 500, 10));
            harness.processElement(bid(0, 1, 50, 30));  // filtered out, still moves split 0 to 00:00:26
            harness.processElement(bid(1, 2, 500, 20)); // split 1 reaches 00:00:16: the minimum moves
            harness.processElement(bid(0, 3, 500, 5));
            // Split 1 ends: the next message of split 0 lets the watermark follow split 0 alone.
            harness.processElement(new StreamRecord<>(MARKERS.released("bids-1")));
            harness.processElement(bid(0, 4, 500, 31));
            harness.endInput();
            for (Object out : harness.getOutput()) {
                if (out instanceof Watermark mark) {
                    seen.add("watermark +" + (mark.getTimestamp() - T0));
                } else if (out instanceof StreamRecord<?> record) {
                    seen.add("row @" + record.getTimestamp()); // each message's own Kafka timestamp
                }
            }
        }
        assertEquals(List.of("row @7000", "row @7002", "watermark +16000", "row @7003", "row @7004",
                "watermark +27000"), seen);
    }
}
