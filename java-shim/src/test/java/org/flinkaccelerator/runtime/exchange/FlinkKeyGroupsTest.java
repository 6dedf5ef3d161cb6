package org.flinkaccelerator.runtime.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.planner.plan.utils.KeySelectorUtil;
import org.apache.flink.table.runtime.keyselector.RowDataKeySelector;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.junit.jupiter.api.Test;

/**
 * Flink's own key selector (the projection the planner generates for a keyed exchange) and
 * {@link KeyGroupRangeAssignment} on seeded random keys, written as {@code tests/exchange/flink_key_groups.json}:
 * the key row's bytes, {@code hashCode()}, key group per max parallelism and subtask per
 * parallelism. The Python test {@code tests/exchange/test_key_groups.py} requires the sidecar's
 * batch functions to give the same for every row; this test requires the file to be what Flink
 * computes today ({@code -Dregenerate.golden=true} rewrites it).
 */
class FlinkKeyGroupsTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "tests", "exchange",
            "flink_key_groups.json").normalize();
    static final int[] MAX_PARALLELISMS = {1, 2, 7, 128, 4096, 32768};
    static final int[] PARALLELISMS = {1, 2, 3, 5};
    private static final int ROWS = 160;

    /** Key types per case; every case has a non-key BIGINT column first, so the projection picks. */
    private static final List<List<String>> CASES = List.of(
            List.of("BIGINT"),
            List.of("INT"),
            List.of("VARCHAR(2147483647)"),
            List.of("BIGINT NOT NULL", "VARCHAR(2147483647)"),
            List.of("VARCHAR(2147483647)", "BIGINT", "INT"),
            List.of("VARCHAR(2147483647)", "VARCHAR(2147483647)"),
            List.of("DATE", "TIMESTAMP(3)", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
            List.of("BOOLEAN", "TINYINT", "SMALLINT", "CHAR(3)"));

    @Test
    void theGoldenFileHoldsFlinksKeyGroups() throws IOException {
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode root = mapper.createObjectNode();
        root.put("about", "Written by java-shim FlinkKeyGroupsTest from Flink's own classes; do not edit.");
        root.set("max_parallelisms", mapper.valueToTree(MAX_PARALLELISMS));
        root.set("parallelisms", mapper.valueToTree(PARALLELISMS));
        ArrayNode cases = root.putArray("cases");
        Random random = new Random(20261207L);
        for (List<String> keyTypes : CASES) {
            cases.add(keyCase(mapper, keyTypes, random));
        }
        String rendered = mapper.writeValueAsString(root) + "\n";
        if (Boolean.getBoolean("regenerate.golden")) {
            Files.writeString(GOLDEN, rendered, StandardCharsets.UTF_8);
        }
        String onDisk = Files.exists(GOLDEN) ? Files.readString(GOLDEN, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, onDisk, GOLDEN + " is not what Flink computes; regenerate it with: mvn -f"
                + " java-shim/pom.xml test -Dtest=FlinkKeyGroupsTest -Dregenerate.golden=true");
    }

    private static ObjectNode keyCase(ObjectMapper mapper, List<String> keyTypes, Random random) {
        LogicalType[] fields = new LogicalType[keyTypes.size() + 1];
        fields[0] = LogicalTypeParser.parse("BIGINT", FlinkKeyGroupsTest.class.getClassLoader());
        int[] keyFields = new int[keyTypes.size()];
        for (int i = 0; i < keyTypes.size(); i++) {
            fields[i + 1] = LogicalTypeParser.parse(keyTypes.get(i), FlinkKeyGroupsTest.class.getClassLoader());
            keyFields[i] = i + 1;
        }
        RowType inputType = RowType.of(fields);
        RowDataKeySelector selector = KeySelectorUtil.getRowDataSelector(
                FlinkKeyGroupsTest.class.getClassLoader(), keyFields, InternalTypeInfo.of(inputType));
        ObjectNode out = mapper.createObjectNode();
        out.set("key_types", mapper.valueToTree(keyTypes));
        ArrayNode rows = out.putArray("rows");
        for (int r = 0; r < ROWS; r++) {
            GenericRowData row = new GenericRowData(fields.length);
            row.setField(0, random.nextLong());
            ArrayNode values = mapper.createArrayNode();
            for (int i = 0; i < keyTypes.size(); i++) {
                Object value = randomValue(fields[i + 1], random);
                row.setField(i + 1, value);
                if (value == null) {
                    values.addNull();
                } else {
                    values.add(mapper.<JsonNode>valueToTree(jsonValue(value)));
                }
            }
            BinaryRowData key = (BinaryRowData) rowKey(selector, row);
            ObjectNode expected = mapper.createObjectNode();
            expected.set("key", values);
            expected.put("bytes", HexFormat.of().formatHex(
                    BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), key.getSizeInBytes())));
            expected.put("hash", key.hashCode());
            ArrayNode groups = expected.putArray("key_groups");
            ArrayNode subtasks = expected.putArray("subtasks");
            for (int maxParallelism : MAX_PARALLELISMS) {
                int group = KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
                groups.add(group);
                ArrayNode perParallelism = subtasks.addArray();
                for (int parallelism : PARALLELISMS) {
                    perParallelism.add(parallelism > maxParallelism ? -1
                            : KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxParallelism, parallelism, group));
                }
            }
            rows.add(expected);
        }
        return out;
    }

    private static Object rowKey(RowDataKeySelector selector, GenericRowData row) {
        try {
            return selector.getKey(row);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A random value of {@code type} (NULL one time in eight when nullable), as Flink holds it. */
    private static Object randomValue(LogicalType type, Random random) {
        if (type.isNullable() && random.nextInt(8) == 0) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: return random.nextBoolean();
            case TINYINT: return (byte) random.nextInt();
            case SMALLINT: return (short) random.nextInt();
            case INTEGER: return random.nextInt(4) == 0 ? random.nextInt(100) : random.nextInt();
            case DATE: return random.nextInt(80000) - 20000;
            case BIGINT: return random.nextInt(4) == 0 ? (long) random.nextInt(1000) : random.nextLong();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.fromEpochMillis(random.nextLong() % 253402300799000L);
            case CHAR: return StringData.fromString(randomString(random, 3, 3));
            default: return StringData.fromString(randomString(random, 0, 40));
        }
    }

    /** ASCII mostly, some two-, three- and four-byte UTF-8 characters, lengths around the 7-byte inline limit. */
    private static String randomString(Random random, int min, int max) {
        int length = min + random.nextInt(max - min + 1);
        if (max > 10 && random.nextBoolean()) {
            length = random.nextInt(12);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            int kind = random.nextInt(10);
            if (kind < 7) {
                text.append((char) ('a' + random.nextInt(26)));
            } else if (kind == 7) {
                text.append((char) (0xe0 + random.nextInt(32)));
            } else if (kind == 8) {
                text.append((char) (0x4e00 + random.nextInt(500)));
            } else {
                text.appendCodePoint(0x1f600 + random.nextInt(50));
            }
        }
        return text.toString();
    }

    private static Object jsonValue(Object value) {
        if (value instanceof StringData) {
            return value.toString();
        }
        if (value instanceof TimestampData) {
            return ((TimestampData) value).getMillisecond();
        }
        if (value instanceof Byte || value instanceof Short) {
            return ((Number) value).intValue();
        }
        return value;
    }
}
