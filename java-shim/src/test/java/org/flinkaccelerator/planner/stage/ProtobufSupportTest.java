package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.flinkaccelerator.sidecar.TestPython;
import org.junit.jupiter.api.Test;

/**
 * The protobuf tables the shim lets the sidecar run, over message classes compiled from real .proto
 * files and loaded, as in Flink, through the thread's context class loader with their own protobuf
 * runtime ({@link TestProtos}).
 */
class ProtobufSupportTest {
    private static final String BID = "acc.compat.Bid";
    private static final String REFUSED = "acc.shim.RefusedProto$Refused";

    private static RowType row(String type) {
        return (RowType) LogicalTypeParser.parse(type, ProtobufSupportTest.class.getClassLoader());
    }

    private static FormatCheck check(TestProtos.Compiled protos, String rowType, Map<String, String> options,
            boolean decoding) {
        return TestProtos.withContextLoader(protos.loader(), () -> ProtobufSupport.check(row(rowType), options, decoding));
    }

    private static Map<String, String> options(String className, String... extra) {
        Map<String, String> out = new HashMap<>(Map.of(ProtobufSupport.MESSAGE_CLASS_NAME, className));
        for (int i = 0; i < extra.length; i += 2) {
            out.put("protobuf." + extra[i], extra[i + 1]);
        }
        return out;
    }

    @Test
    void theSpecCarriesTheMessagesFileAndItsImportsDependenciesFirst() throws Exception {
        TestProtos.Compiled compat = TestProtos.compile(TestProtos.COMPAT);
        String bid = "ROW<auction BIGINT, bidder ROW<id BIGINT, name STRING>, price BIGINT, channel STRING, url STRING,"
                + " placed ROW<seconds BIGINT, nanos INT>, extra STRING, ratio DOUBLE, sealed BOOLEAN, payload BYTES,"
                + " quantity INT, delta BIGINT>";
        for (boolean decoding : new boolean[] {true, false}) {
            FormatCheck checked = check(compat, bid, options(BID), decoding);
            assertEquals(List.of(), checked.problems());
            assertEquals(BID, checked.options().get(ProtobufSupport.MESSAGE_NAME));
            assertEquals(BID, checked.options().get(ProtobufSupport.MESSAGE_CLASS_NAME), "the table's options stay");
            FileDescriptorSet set = FileDescriptorSet.parseFrom(
                    Base64.getDecoder().decode(checked.options().get(ProtobufSupport.DESCRIPTOR_SET)));
            assertEquals(List.of("google/protobuf/timestamp.proto", "bids.proto"),
                    set.getFileList().stream().map(FileDescriptorProto::getName).toList());
            // The same files protoc itself writes with --include_imports.
            Map<String, FileDescriptorProto> protoc = new HashMap<>();
            FileDescriptorSet.parseFrom(compat.descriptorSet()).getFileList().forEach(f -> protoc.put(f.getName(), f));
            for (FileDescriptorProto file : set.getFileList()) {
                assertEquals(withoutJsonNames(protoc.get(file.getName())), withoutJsonNames(file), file.getName());
            }
        }
    }

    /** protoc's descriptor set spells out each field's JSON name; the copy a class embeds leaves it derived. */
    private static FileDescriptorProto withoutJsonNames(FileDescriptorProto file) {
        FileDescriptorProto.Builder builder = file.toBuilder();
        builder.getMessageTypeBuilderList().forEach(ProtobufSupportTest::clearJsonNames);
        return builder.build();
    }

    private static void clearJsonNames(com.google.protobuf.DescriptorProtos.DescriptorProto.Builder message) {
        message.getFieldBuilderList().forEach(f -> f.clearJsonName());
        message.getNestedTypeBuilderList().forEach(ProtobufSupportTest::clearJsonNames);
    }

    @Test
    void aNestedMessageClassGivesItsProtobufName() {
        TestProtos.Compiled compat = TestProtos.compile(TestProtos.COMPAT);
        FormatCheck checked = check(compat, "ROW<id BIGINT, item STRING, size STRING>",
                options("acc.compat.OrdersProto$Order"), true);
        assertEquals(List.of(), checked.problems());
        assertEquals("acc.compat.Order", checked.options().get(ProtobufSupport.MESSAGE_NAME));
    }

    @Test
    void aClassThatCannotBeLoadedKeepsTheSegmentStockSayingWhy() {
        TestProtos.Compiled compat = TestProtos.compile(TestProtos.COMPAT);
        FormatCheck missing = check(compat, "ROW<a INT>", options("acc.compat.Nope"), true);
        assertEquals(1, missing.problems().size());
        assertTrue(missing.problems().get(0).contains("'acc.compat.Nope' cannot be loaded at planning time"),
                missing.problems().get(0));
        assertTrue(missing.problems().get(0).contains("Flink's classpath"), missing.problems().get(0));
        assertEquals(options("acc.compat.Nope"), missing.options(), "no schema keys without a message");
        // Without the jar on the context class loader (the test's own loader has no compiled classes).
        assertTrue(ProtobufSupport.check(row("ROW<auction BIGINT>"), options(BID), true).problems().get(0)
                .contains("cannot be loaded"));
        assertTrue(check(compat, "ROW<a INT>", options("java.lang.String"), true).problems().get(0)
                .contains("not a generated protobuf message class"));
    }

    @Test
    void optionsAreReadAsFlinksFactoryReadsThem() {
        TestProtos.Compiled compat = TestProtos.compile(TestProtos.COMPAT);
        String row = "ROW<auction BIGINT>";
        assertEquals(List.of(), check(compat, row, options(BID, "ignore-parse-errors", "TRUE", "read-default-values",
                "false", "write-null-string-literal", "null"), true).problems());
        assertTrue(check(compat, row, options(BID, "ignore-parse-errors", "yes"), true).problems().get(0)
                .contains("is not a boolean"));
        assertTrue(check(compat, row, options(BID, "message-name", "x"), false).problems().get(0)
                .contains("'protobuf.message-name' is not accelerated"));
        assertTrue(check(compat, row, Map.of(), false).problems().get(0).contains("needs 'protobuf.message-class-name'"));
    }

    @Test
    void messageShapesTheSidecarDoesNotReproduceAreRefusedWithTheirReason() {
        TestProtos.Compiled shim = TestProtos.compile(TestProtos.SHIM);
        Map<String, String> cases = Map.of(
                "ROW<required_field INT>", "required fields",
                "ROW<grouped ROW<inside INT>>", "groups",
                "ROW<aliased STRING>", "aliases",
                "ROW<field2b INT>", "lower_snake_case",
                "ROW<camelCase INT>", "lower_snake_case",
                "ROW<fine_count INT>", "accessor suffix",
                "ROW<closed_values MAP<STRING, STRING>>", "closed (proto2) enum",
                "ROW<fine BIGINT>", "does not map protobuf type int32 to BIGINT",
                "ROW<nope INT>", "does not exist in protobuf message acc.shim.Refused",
                "ROW<numbers INT>", "expects an ARRAY");
        cases.forEach((rowType, reason) -> {
            List<String> problems = check(shim, rowType, options(REFUSED), false).problems();
            assertEquals(1, problems.size(), rowType + ": " + problems);
            assertTrue(problems.get(0).contains(reason), rowType + ": " + problems);
        });
    }

    /**
     * A message of an editions file is refused naming its syntax. On the 1.20 line no such class
     * exists: its flink-protobuf runs protobuf-java 3.21.7, whose protoc fails on the file.
     */
    @Test
    void anEditionsMessageIsRefusedWhereProtocCompilesIt() {
        if (EnvironmentInformation.getVersion().startsWith("1.20.")) {
            AssertionError protoc = assertThrows(AssertionError.class, () -> TestProtos.compile(TestProtos.EDITIONS));
            assertTrue(protoc.getMessage().contains("protoc failed") && protoc.getMessage().contains("editions.proto:2:1"),
                    protoc.getMessage());
            return;
        }
        TestProtos.Compiled editions = TestProtos.compile(TestProtos.EDITIONS);
        assertTrue(check(editions, "ROW<number INT>", options("acc.shim.editions.Modern"), true).problems().get(0)
                .contains("uses syntax 'editions'"));
    }

    @Test
    void implicitPresenceFieldsNeedReadDefaultValuesUnderAProto2Message() {
        TestProtos.Compiled shim = TestProtos.compile(TestProtos.SHIM);
        String row = "ROW<fine INT, plain ROW<number INT, maybe INT>>";
        List<String> strict = check(shim, row, options(REFUSED), true).problems();
        assertEquals(1, strict.size(), strict.toString());
        assertTrue(strict.get(0).startsWith("plain.number: without read-default-values"), strict.get(0));
        assertEquals(List.of(), check(shim, row, options(REFUSED), false).problems(), "writing asks for no presence");
        assertEquals(List.of(), check(shim, row, options(REFUSED, "read-default-values", "true"), true).problems());
    }

    /**
     * The shim must never accept a table the sidecar refuses (the job would fail at start), and
     * should accept what the sidecar reproduces: for every field of each test message, in its
     * natural Flink type and a wrong one, both directions, with and without read-default-values,
     * the shim's verdict equals the sidecar's {@code protobuf.supported} on the options it exports.
     */
    @Test
    void theShimAndTheSidecarAgreeOnEveryFieldOfTheTestMessages() throws Exception {
        List<String[]> cases = new ArrayList<>(); // row type, options, direction, the shim's verdict, label
        addCases(TestProtos.compile(TestProtos.KITCHEN), "acc.kitchen3.Kitchen3Proto$All", cases);
        addCases(TestProtos.compile(TestProtos.KITCHEN), "acc.kitchen2.Kitchen2Proto$All", cases);
        addCases(TestProtos.compile(TestProtos.COMPAT), BID, cases);
        addCases(TestProtos.compile(TestProtos.COMPAT), "acc.compat.OrdersProto$Order", cases);
        addCases(TestProtos.compile(TestProtos.SHIM), REFUSED, cases);
        List<String> sidecar = sidecarVerdicts(cases);
        List<String> disagreements = new ArrayList<>();
        int accepted = 0;
        for (int i = 0; i < cases.size(); i++) {
            String[] c = cases.get(i);
            accepted += c[3].isEmpty() ? 1 : 0;
            if (c[3].isEmpty() != sidecar.get(i).isEmpty()) {
                disagreements.add(c[4] + " " + c[0] + " " + c[2] + ": shim '" + c[3] + "', sidecar '" + sidecar.get(i) + "'");
            }
        }
        assertEquals(List.of(), disagreements);
        assertTrue(accepted > 100 && accepted < cases.size() - 100, accepted + " of " + cases.size() + " accepted");
    }

    private static void addCases(TestProtos.Compiled protos, String className, List<String[]> out) throws Exception {
        Descriptor message = TestProtos.withContextLoader(protos.loader(), () -> {
            try {
                return ProtobufMessage.load(className, protos.loader()).descriptor();
            } catch (ProtobufMessage.Unavailable e) {
                throw new IllegalStateException(e);
            }
        });
        List<String> rows = new ArrayList<>();
        for (FieldDescriptor field : message.getFields()) {
            rows.add("ROW<`" + field.getName() + "` " + naturalType(field, false) + ">");
            rows.add("ROW<`" + field.getName() + "` " + naturalType(field, true) + ">");
            rows.add("ROW<`" + field.getName() + "` TINYINT>");
        }
        for (String rowType : rows) {
            for (String readDefaults : List.of("false", "true")) {
                for (boolean decoding : new boolean[] {true, false}) {
                    Map<String, String> options = options(className, "read-default-values", readDefaults);
                    FormatCheck checked = TestProtos.withContextLoader(protos.loader(),
                            () -> ProtobufSupport.check(row(rowType), options, decoding));
                    String type = row(rowType).asSerializableString();
                    out.add(new String[] {type, json(checked.options()), decoding ? "decode" : "encode",
                            String.join("; ", checked.problems()), className + " read-default-values=" + readDefaults});
                }
            }
        }
    }

    /** The Flink type Flink maps the field to (enums: as names, or {@code asNumber} as numbers). */
    private static String naturalType(FieldDescriptor field, boolean asNumber) {
        if (field.isMapField()) {
            return "MAP<" + single(field.getMessageType().findFieldByName("key"), asNumber) + ", "
                    + single(field.getMessageType().findFieldByName("value"), asNumber) + ">";
        }
        return field.isRepeated() ? "ARRAY<" + single(field, asNumber) + ">" : single(field, asNumber);
    }

    private static String single(FieldDescriptor field, boolean asNumber) {
        return switch (field.getJavaType()) {
            case INT -> "INT";
            case LONG -> "BIGINT";
            case FLOAT -> "FLOAT";
            case DOUBLE -> "DOUBLE";
            case BOOLEAN -> "BOOLEAN";
            case STRING -> "STRING";
            case BYTE_STRING -> "BYTES";
            case ENUM -> asNumber ? "INT" : "STRING";
            case MESSAGE -> "ROW<" + String.join(", ", field.getMessageType().getFields().stream()
                    .map(f -> "`" + f.getName() + "` " + naturalType(f, asNumber)).toList()) + ">";
        };
    }

    private static String json(Map<String, String> options) {
        StringBuilder out = new StringBuilder("{");
        options.forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append(quote(k)).append(':').append(quote(v)));
        return out.append('}').toString();
    }

    private static String quote(String text) {
        return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    /** The sidecar's verdict per case ("" = supported), from one Python process. */
    private static List<String> sidecarVerdicts(List<String[]> cases) throws Exception {
        String script = """
                import json, sys
                from accelerator.formats import protobuf
                cases = [json.loads(line) for line in sys.stdin.read().splitlines()]  # all before any output
                for row_type, options, direction in cases:
                    print(json.dumps(protobuf.supported(row_type, options, direction) or ""))
                """;
        Process python = new ProcessBuilder(TestPython.path(), "-c", script).redirectErrorStream(true).start();
        StringBuilder input = new StringBuilder();
        for (String[] c : cases) {
            input.append('[').append(quote(c[0])).append(',').append(c[1]).append(',').append(quote(c[2])).append("]\n");
        }
        try (var stdin = python.getOutputStream()) {
            stdin.write(input.toString().getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(python.waitFor(120, TimeUnit.SECONDS), "python did not finish");
        assertEquals(0, python.exitValue(), "python failed: " + output);
        List<String> verdicts = output.lines().map(l -> l.substring(1, l.length() - 1)).toList();
        assertEquals(cases.size(), verdicts.size(), output);
        return verdicts;
    }
}
