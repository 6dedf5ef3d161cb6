package org.flinkaccelerator.planner.stage;

import java.util.List;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.planner.segment.SegmentFinder;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;

/** Every Kafka segment of a plan exported, and the sinks that end none, with why. */
public record StageExports(List<StageExport> exports, List<String> notSegments) {
    public static StageExports of(ExecNodeGraph graph, ReadableConfig config) {
        SegmentFinder.Result found = SegmentFinder.find(graph);
        StageExporter exporter = new StageExporter(FunctionRegistry.standard());
        return new StageExports(
                found.segments().stream().map(s -> exporter.export(s, config)).collect(Collectors.toList()),
                found.notSegments());
    }

    /** One line for an operator: what would be accelerated, what stays stock and why. */
    public String summary() {
        if (exports.isEmpty()) {
            return "no Kafka source -> Calc -> Kafka sink segment in this plan"
                    + (notSegments.isEmpty() ? "" : " (" + String.join("; ", notSegments) + ")");
        }
        StringBuilder out = new StringBuilder();
        for (StageExport export : exports) {
            out.append(out.length() == 0 ? "" : "; ").append("segment ").append(export.name());
            if (export.accelerated()) {
                out.append(" can be accelerated");
            } else {
                out.append(" stays stock Flink because ").append(export.fallback().stream()
                        .map(FallbackReason::toString).collect(Collectors.joining(", ")));
            }
        }
        for (String other : notSegments) {
            out.append("; not a segment: ").append(other);
        }
        return out.toString();
    }
}
