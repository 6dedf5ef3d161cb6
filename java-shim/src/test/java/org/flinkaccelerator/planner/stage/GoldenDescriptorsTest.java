package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.rules.AccelerateWindowAggregates;
import org.flinkaccelerator.planner.segment.SinkChain;
import org.flinkaccelerator.planner.segment.SinkChainFinder;
import org.flinkaccelerator.planner.segment.SourceChain;
import org.flinkaccelerator.planner.segment.SourceChainFinder;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.flinkaccelerator.planner.windowagg.WindowAggExport;
import org.flinkaccelerator.planner.windowagg.WindowAggNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every substrait-plans/NAME.sql, planned by Flink's real planner, exports exactly
 * substrait-plans/NAME.json (a stage descriptor, or the fallback reasons): its one Kafka segment,
 * or, for {@value #ROWS}NAME, the rows stage of its one Kafka source, or, for {@value #ENCODE}NAME,
 * the encode stage of its one Kafka sink. The same files are what the Python tests execute, so the
 * two sides cannot drift apart. Every substrait-plans/{@value #WINDOW_AGG}/NAME.sql exports its one
 * window aggregate as NAME.json ({@link WindowAggExport}). Where the 1.20 line exports another
 * descriptor (a version difference the shim handles), NAME{@value #LINE_120_SUFFIX} holds it.
 */
class GoldenDescriptorsTest {
    static final String ROWS = "rows_";
    static final String ENCODE = "encode_";
    static final String WINDOW_AGG = "window_agg";
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'\\s*;\\s*");
    static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();
    static final String REGENERATE = "mvn -f java-shim/pom.xml test -Dtest=GoldenDescriptorsTest -Dregenerate.golden=true";
    /** Beside NAME.json, the descriptor the 1.20 line's jar exports where it differs from 2.x's (under -Pflink-1.20). */
    static final String LINE_120_SUFFIX = ".flink-1.20.json";

    @TestFactory
    Stream<DynamicTest> eachQueryExportsItsGoldenDescriptor() throws IOException {
        List<Path> queries;
        try (Stream<Path> files = Files.list(GOLDEN)) {
            queries = files.filter(p -> p.toString().endsWith(".sql")).sorted().collect(Collectors.toList());
        }
        assertTrue(queries.size() >= 12, "expected at least 12 golden queries in " + GOLDEN);
        return queries.stream().map(sql -> DynamicTest.dynamicTest(sql.getFileName().toString(), () -> check(sql)));
    }

    @TestFactory
    Stream<DynamicTest> eachWindowAggregateQueryExportsItsGoldenDescriptor() throws IOException {
        List<Path> queries;
        try (Stream<Path> files = Files.list(GOLDEN.resolve(WINDOW_AGG))) {
            queries = files.filter(p -> p.toString().endsWith(".sql")).sorted().collect(Collectors.toList());
        }
        assertTrue(queries.size() >= 4, "expected at least 4 golden window aggregate queries");
        return queries.stream().map(sql -> DynamicTest.dynamicTest(WINDOW_AGG + "/" + sql.getFileName(),
                () -> checkWindowAgg(sql)));
    }

    /** The query's one window aggregate, exported as the rule names it, against NAME.json. */
    private static void checkWindowAgg(Path sql) throws IOException {
        SqlPlans plans = new SqlPlans();
        StringBuilder statements = new StringBuilder();
        for (String line : Files.readString(sql, StandardCharsets.UTF_8).split("\n", -1)) {
            Matcher set = SET.matcher(line);
            if (set.matches()) {
                plans.set(set.group(1), set.group(2));
            } else {
                statements.append(line).append('\n');
            }
        }
        List<FoundNode<WindowAggNode>> found = WindowAggNode.find(plans.plan(statements.toString()));
        assertEquals(1, found.size(), "one window aggregate expected");
        String name = AccelerateWindowAggregates.baseName(found.get(0).node());
        compare(sql, WindowAggExport.of(name, found.get(0).fields(), plans.config()).toJson());
    }

    private static void check(Path sql) throws IOException {
        SqlPlans plans = new SqlPlans();
        ExecNodeGraph graph = plans.plan(Files.readString(sql, StandardCharsets.UTF_8));
        String emitted;
        if (sql.getFileName().toString().startsWith(ROWS)) {
            SourceChainFinder.Result found = SourceChainFinder.find(graph, AcceleratedExecNode.class);
            assertEquals(1, found.chains().size(), "one Kafka source expected: " + found.chains());
            SourceChain chain = found.chains().get(0);
            String name = chain.source().getTableSourceSpec().getContextResolvedTable().getIdentifier().getObjectName()
                    + "-rows";
            emitted = new StageExporter(FunctionRegistry.standard()).exportRows(name, chain.source(), chain.calcChains())
                    .export().toJson();
        } else if (sql.getFileName().toString().startsWith(ENCODE)) {
            List<SinkChain> chains = SinkChainFinder.find(graph, AcceleratedExecNode.class);
            assertEquals(1, chains.size(), "one Kafka sink expected: " + chains);
            SinkChain chain = chains.get(0);
            String name = chain.sink().getTableSinkSpec().getContextResolvedTable().getIdentifier().getObjectName()
                    + "-encode";
            plans.set(AcceleratorOptions.UPSERT_ENCODE_STAGES.key(), "true"); // the golden upsert sinks' stages
            emitted = new StageExporter(FunctionRegistry.standard()).exportEncode(name, chain.calcs(), chain.sink(),
                    plans.config()).export().toJson();
        } else {
            // Protobuf tables name message classes, which Flink (and the shim) load through the context class
            // loader when the plan is translated; the compatibility suite's messages are compiled for that.
            StageExports exports = TestProtos.withContextLoader(TestProtos.compile(TestProtos.COMPAT).loader(),
                    () -> StageExports.of(graph, plans.config()));
            assertEquals(1, exports.exports().size(), "one Kafka segment expected: " + exports.summary());
            emitted = exports.exports().get(0).toJson();
        }
        compare(sql, emitted);
    }

    private static void compare(Path sql, String emitted) throws IOException {
        Path common = Paths.get(sql.toString().replaceAll("\\.sql$", ".json"));
        Path line = Paths.get(sql.toString().replaceAll("\\.sql$", LINE_120_SUFFIX));
        boolean on120 = EnvironmentInformation.getVersion().startsWith("1.20.");
        Path golden = on120 && Files.exists(line) ? line : common;
        if (Boolean.getBoolean("regenerate.golden")) {
            boolean differsOn120 = on120 && !(Files.exists(common)
                    && Files.readString(common, StandardCharsets.UTF_8).equals(emitted));
            golden = differsOn120 ? line : golden;
            Files.writeString(golden, emitted, StandardCharsets.UTF_8);
        }
        String onDisk = Files.exists(golden) ? Files.readString(golden, StandardCharsets.UTF_8) : "";
        assertEquals(onDisk, emitted, golden + " differs from what the shim emits; if the change is intended,"
                + " regenerate with: " + REGENERATE);
    }
}
