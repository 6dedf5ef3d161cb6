package org.flinkaccelerator.planner.rules;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;
import org.flinkaccelerator.planner.replace.SegmentReplacement;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.segment.SourceChain;
import org.flinkaccelerator.planner.segment.SourceChainFinder;
import org.flinkaccelerator.planner.stage.ExpectedGain;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.planner.stage.RowsExport;
import org.flinkaccelerator.planner.stage.StageExport;
import org.flinkaccelerator.planner.stage.StageExporter;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.flinkaccelerator.planner.windowagg.LocalPhaseFold;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Partial acceleration: every Kafka source that is not part of a replaced segment, with the
 * longest run of Calcs after each of its uses that is reproduced exactly, becomes a raw-value
 * source and a rows stage ({@link StageExporter#exportRows}) that decodes it once, whose
 * Arrow-backed rows feed the stock operators that consumed the replaced nodes (a shared source's
 * other branches through side outputs, {@link SegmentReplacement#branchOf}). Runs after {@link ExportKafkaSegments}. One INFO line per plan
 * names the rows stages and why each part after them (or each source) stays stock. With
 * {@code accelerator.window-aggregate.local-phase.enabled}, a branch whose rows only a stock local
 * window aggregate reads answers that aggregate's partial rows instead ({@link LocalPhaseFold}), and
 * the aggregate's consumers read the branch.
 *
 * <p>This rule points the consumers' input edges at the new operator: those are nodes of the
 * graph it was given, which the planner puts back after translation
 * ({@code org.flinkaccelerator.planner.GraphEdges}).
 */
public final class AccelerateKafkaSources implements RewriteRule {
    private static final Logger LOG = LoggerFactory.getLogger(AccelerateKafkaSources.class);
    /** The stage's name: the source table's, then this. */
    static final String SUFFIX = "-rows";

    @Override
    public String name() {
        return "accelerate-kafka-sources";
    }

    @Override
    public ExecNodeGraph apply(ExecNodeGraph graph, ReadableConfig config, AccelerationReport report) {
        SourceChainFinder.Result found;
        try {
            found = SourceChainFinder.find(graph, AcceleratedExecNode.class);
        } catch (RuntimeException e) {
            LOG.warn("flink-accelerator: could not look for Kafka sources to accelerate partly; they run as stock"
                    + " Flink", e);
            return graph;
        }
        StageExporter exporter = new StageExporter(FunctionRegistry.standard());
        Set<String> names = new HashSet<>();
        List<String> summary = new ArrayList<>();
        boolean rewired = false;
        for (SourceChain chain : found.chains()) {
            String table = chain.source().getTableSourceSpec().getContextResolvedTable().getIdentifier().getObjectName();
            String name = StageNames.unique(table + SUFFIX, names);
            try {
                RowsExport rows = exporter.exportRows(name, chain.source(), chain.calcChains());
                if (!rows.export().accelerated()) {
                    summary.add("source " + table + " stays stock: " + StageNames.joined(rows.export().fallback()));
                    report.stock(name, List.of(chain.source()),
                            rows.export().fallback().stream().map(FallbackReason::toString).toList());
                    continue;
                }
                String noGain = ExpectedGain.rows(rows.export().descriptor().decode().format(), rows);
                if (noGain != null) {
                    // Say why no Calc could join the stage: that is what kept it without work.
                    List<String> reasons = new ArrayList<>(List.of("source " + table + ": " + noGain));
                    rows.branches().forEach(b -> b.stoppedBy().forEach(r -> reasons.add("the calc after source " + table
                            + " stays stock: " + r)));
                    summary.add("source " + table + " stays stock: " + String.join("; ", reasons));
                    report.stock(name, List.of(chain.source()), reasons);
                    continue;
                }
                List<ExecNode<?>> nodes = new ArrayList<>();
                nodes.add(chain.source());
                List<RowType> types = new ArrayList<>();
                List<List<SourceChainFinder.Use>> branchUses = new ArrayList<>();
                Map<Integer, Map<String, Object>> localPhases = new HashMap<>();
                List<String> foldNotes = new ArrayList<>();
                for (int b = 0; b < chain.branches().size(); b++) {
                    SourceChain.Branch branch = chain.branches().get(b);
                    int calcs = rows.branches().get(b).calcs();
                    nodes.addAll(branch.calcs().subList(0, calcs));
                    List<SourceChainFinder.Use> uses = calcs == 0 ? List.of(branch.use())
                            : found.usesOf(branch.calcs().get(calcs - 1));
                    RowType type = rows.branches().get(b).rows();
                    if (config.get(AcceleratorOptions.WINDOW_AGGREGATE_LOCAL_PHASE) && uses.size() == 1
                            && uses.get(0).consumer() instanceof StreamExecLocalWindowAggregate local) {
                        LocalPhaseFold fold = LocalPhaseFold.of(local, rows.watermarks(), config);
                        if (fold.folded()) {
                            localPhases.put(b, fold.section());
                            nodes.add(local);
                            type = fold.output();
                            uses = found.usesOf(local);
                            foldNotes.add("the local window aggregate after branch " + (b + 1) + " folded in");
                        } else {
                            List<String> why = fold.reasons().stream().map(FallbackReason::toString).toList();
                            report.stockOperator("local window aggregate", name + "-local-window-agg", local, why);
                            foldNotes.add("the local window aggregate after branch " + (b + 1) + " stays stock: "
                                    + String.join("; ", why));
                        }
                    }
                    types.add(type);
                    branchUses.add(uses);
                }
                String descriptor = localPhases.isEmpty() ? rows.export().toJson()
                        : new StageExport(name, rows.export().descriptor().withLocalPhases(localPhases), List.of()).toJson();
                AcceleratedExecNode accelerated = SegmentReplacement.buildRows(chain.source(), name,
                        descriptor, rows.export().descriptor().decode().format(), types, rows.watermarks(),
                        config);
                List<String> stoppedBy = new ArrayList<>();
                List<String> parts = new ArrayList<>();
                for (int b = 0; b < chain.branches().size(); b++) {
                    RowsExport.Branch exported = rows.branches().get(b);
                    List<SourceChainFinder.Use> uses = branchUses.get(b);
                    ExecNode<?> output = SegmentReplacement.branchOf(accelerated, b, config);
                    for (SourceChainFinder.Use use : uses) {
                        ExecEdge old = use.consumer().getInputEdges().get(use.input());
                        use.consumer().replaceInputEdge(use.input(), ExecEdge.builder().source(output)
                                .target(use.consumer()).shuffle(old.getShuffle()).exchangeMode(old.getExchangeMode())
                                .build());
                    }
                    exported.stoppedBy().forEach(r -> stoppedBy.add(r.toString()));
                    parts.add((exported.calcs() == 0 ? "" : exported.calcs() + " calc(s), ") + "rows to stock "
                            + consumers(uses) + (exported.stoppedBy().isEmpty() ? ""
                            : " (the next calc stays stock: " + StageNames.joined(exported.stoppedBy()) + ")"));
                }
                rewired = true;
                report.partial(name, nodes, accelerated.spec().operatorName(), stoppedBy);
                parts.addAll(foldNotes);
                summary.add("source " + table + " runs as " + accelerated.spec().operatorName() + ": "
                        + String.join("; ", parts));
            } catch (RuntimeException e) {
                LOG.warn("flink-accelerator: could not accelerate source {} partly; it runs as stock Flink", table, e);
                summary.add("source " + table + " stays stock: building its accelerated operator failed: " + e);
            }
        }
        if (!summary.isEmpty()) {
            LOG.info("flink-accelerator: partial acceleration: {}", String.join("; ", summary));
        }
        return rewired ? new ExecNodeGraph(graph.getFlinkVersion(), graph.getRootNodes()) : graph;
    }

    private static String consumers(List<SourceChainFinder.Use> uses) {
        return String.join(", ", uses.stream().map(u -> u.consumer().getDescription()).distinct().toList());
    }
}
