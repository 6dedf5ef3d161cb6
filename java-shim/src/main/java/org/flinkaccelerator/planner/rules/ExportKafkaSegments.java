package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.replace.SegmentReplacement;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.segment.KafkaSegment;
import org.flinkaccelerator.planner.segment.SegmentFinder;
import org.flinkaccelerator.planner.stage.StageDescriptor;
import org.flinkaccelerator.planner.stage.StageExport;
import org.flinkaccelerator.planner.stage.StageExporter;
import org.flinkaccelerator.planner.stage.StageExports;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the plan's Kafka segments, exports each as a stage descriptor and replaces those that can
 * run on the accelerator by a raw-value Kafka source, an accelerated operator and a raw-value
 * Kafka sink ({@link SegmentReplacement}). One INFO line per plan says which segments could be
 * accelerated and why the others stay stock, one more which were replaced; DEBUG shows each
 * descriptor. Kafka metadata columns the source reads travel beside the value bytes.
 */
public final class ExportKafkaSegments implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(ExportKafkaSegments.class);

    @Override
    public String name() {
        return "export-kafka-segments";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        SegmentFinder.Result found;
        List<StageExport> exports = new ArrayList<>();
        try {
            found = SegmentFinder.find(graph);
            StageExporter exporter = new StageExporter(FunctionRegistry.standard());
            for (KafkaSegment segment : found.segments()) {
                exports.add(exporter.export(segment, config));
            }
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not analyse this plan; it runs as stock Flink", e);
            report.notSegment("the whole plan: the accelerator could not analyse it (" + e + ")");
            return graph;
        }
        LOG.info("flink-accelerator: {}", new StageExports(exports, found.notSegments()).summary());
        if (LOG.isDebugEnabled()) {
            for (StageExport export : exports) {
                LOG.debug("flink-accelerator: stage {}:\n{}", export.name(), export.toJson());
            }
        }
        found.notSegments().forEach(report::notSegment);
        Map<ExecNode<?>, ExecNode<?>> replaced = new IdentityHashMap<>();
        for (int i = 0; i < exports.size(); i++) {
            ExecNode<?> sink = replace(found.segments().get(i), exports.get(i), config, report);
            if (sink != null) {
                replaced.put(found.segments().get(i).sink(), sink);
            }
        }
        return ReplacedRoots.of(graph, replaced);
    }

    /** The new sink node of an accelerated replacement, or null when the segment stays stock. */
    private static ExecNode<?> replace(KafkaSegment segment, StageExport export, ReadableConfig config,
            AccelerationReport report) {
        List<ExecNode<?>> nodes = new ArrayList<>();
        nodes.add(segment.source());
        nodes.addAll(segment.calcs());
        nodes.add(segment.sink());
        if (!export.accelerated()) {
            report.stock(export.name(), nodes, export.fallback().stream().map(Object::toString).toList());
            return null;
        }
        StageDescriptor descriptor = export.descriptor();
        try {
            ExecNode<?> sink = SegmentReplacement.build(segment, export.name(), export.toJson(),
                    descriptor.decode().format(), descriptor.encode().format(), config);
            LOG.info("flink-accelerator: segment {} runs accelerated (operator Accelerated[{}])", export.name(),
                    export.name());
            report.accelerated(export.name(), nodes, "Accelerated[" + export.name() + "]");
            return sink;
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not replace segment {}; it runs as stock Flink", export.name(), e);
            report.stock(export.name(), nodes, List.of("building its accelerated operator failed: " + e));
            return null;
        }
    }
}
