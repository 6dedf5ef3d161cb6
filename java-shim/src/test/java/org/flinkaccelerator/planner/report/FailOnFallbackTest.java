package org.flinkaccelerator.planner.report;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.rules.ExportKafkaSegments;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.junit.jupiter.api.Test;

/** The report of real golden plans, and the fail-on-fallback option that reads it. */
class FailOnFallbackTest {
    private static final Path GOLDEN = Paths.get(System.getProperty("basedir", "."), "..", "substrait-plans").normalize();

    private static AccelerationReport report(String golden, ExecNodeGraph[] graph) throws Exception {
        SqlPlans plans = new SqlPlans();
        graph[0] = plans.plan(Files.readString(GOLDEN.resolve(golden + ".sql"), StandardCharsets.UTF_8));
        AccelerationReport report = new AccelerationReport();
        new ExportKafkaSegments().apply(graph[0], plans.config(), report);
        return report;
    }

    private static Configuration failOnFallback(boolean on) {
        Configuration config = new Configuration();
        config.set(AcceleratorOptions.FAIL_ON_FALLBACK, on);
        return config;
    }

    @Test
    void anAcceleratedPlanPassesAndIsMarkedAccelerated() throws Exception {
        ExecNodeGraph[] graph = new ExecNodeGraph[1];
        AccelerationReport report = report("nexmark_q2", graph);
        assertEquals(java.util.List.of(), report.stockParts());
        assertDoesNotThrow(() -> FailOnFallback.check(report, failOnFallback(true)));
        String rendered = report.render(graph[0]);
        assertEquals(3, rendered.split("\\[accelerated: Accelerated\\[bid-to-out_bid]]", -1).length - 1, rendered);
        assertTrue(rendered.startsWith("Sink(table=[default_catalog.default_database.out_bid]"), rendered);
        assertTrue(rendered.contains("\n+- Calc("), rendered);
        assertTrue(rendered.contains("\n   +- TableSourceScan(table=[[default_catalog, default_database, bid"), rendered);
    }

    @Test
    void aStockSegmentFailsTheSubmissionWhenAskedNamingSegmentReasonAndOption() throws Exception {
        ExecNodeGraph[] graph = new ExecNodeGraph[1];
        AccelerationReport report = report("fallback_regexp", graph);
        assertDoesNotThrow(() -> FailOnFallback.check(report, failOnFallback(false)), "the default runs stock");
        assertDoesNotThrow(() -> FailOnFallback.check(report, new Configuration()), "false is the default");
        ValidationException e = assertThrows(ValidationException.class,
                () -> FailOnFallback.check(report, failOnFallback(true)));
        assertTrue(e.getMessage().contains("'accelerator.fallback.fail-on-fallback' is true"), e.getMessage());
        assertTrue(e.getMessage().contains("segment bid-to-out_bid: "), e.getMessage());
        assertTrue(e.getMessage().contains("REGEXP_EXTRACT"), e.getMessage());
        String rendered = report.render(graph[0]);
        assertTrue(rendered.contains("[stock: ") && rendered.contains("REGEXP_EXTRACT"), rendered);
        assertTrue(!rendered.contains("[accelerated"), rendered);
    }

    @Test
    void aSegmentWithAFormatTheSidecarCannotDecodeStaysStockWithThatReason() throws Exception {
        AccelerationReport report = report("fallback_raw_source", new ExecNodeGraph[1]);
        assertEquals(1, report.stockParts().size(), report.stockParts().toString());
        assertTrue(report.stockParts().get(0).contains("'raw.charset' = 'UTF-16LE' is not accelerated when decoding"),
                report.stockParts().toString());
    }
}
