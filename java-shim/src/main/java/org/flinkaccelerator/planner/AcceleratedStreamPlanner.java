package org.flinkaccelerator.planner;

import java.util.List;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.TableConfig;
import org.apache.flink.table.catalog.CatalogManager;
import org.apache.flink.table.catalog.FunctionCatalog;
import org.apache.flink.table.delegation.Executor;
import org.apache.flink.table.module.ModuleManager;
import org.apache.flink.table.planner.delegation.StreamPlanner;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.Activation;
import org.flinkaccelerator.ActivationLog;
import org.flinkaccelerator.planner.report.AccelerationReport;
import org.flinkaccelerator.planner.report.FailOnFallback;

/**
 * Stock's streaming planner with one seam: the ExecNode graph passes through the
 * {@link GraphRewriter} before Flink translates it to transformations. The flag is read from the
 * TableConfig on every plan, so config.yaml, -D and SET all count. This also runs for EXPLAIN and
 * EXECUTE PLAN, so rewriting must have no side effects.
 */
public class AcceleratedStreamPlanner extends StreamPlanner {
    private final GraphRewriter rewriter;
    private volatile String lastReport;

    public AcceleratedStreamPlanner(Executor executor, TableConfig tableConfig, ModuleManager moduleManager,
            FunctionCatalog functionCatalog, CatalogManager catalogManager, ClassLoader classLoader,
            GraphRewriter rewriter) {
        super(executor, tableConfig, moduleManager, functionCatalog, catalogManager, classLoader);
        this.rewriter = rewriter;
    }

    @Override
    public List<Transformation<?>> translateToPlan(ExecNodeGraph execGraph) {
        String flinkVersion = EnvironmentInformation.getVersion();
        Activation activation = Activation.decide(flinkVersion, getTableConfig().get(AcceleratorOptions.ENABLED));
        ActivationLog.report(activation, flinkVersion);
        if (activation.keepsStockPlan()) {
            lastReport = "The accelerator leaves this plan stock: " + activation.name() + " (Flink " + flinkVersion
                    + ", " + AcceleratorOptions.ENABLED.key() + " = " + getTableConfig().get(AcceleratorOptions.ENABLED)
                    + ").\n";
            return super.translateToPlan(execGraph);
        }
        AccelerationReport report = new AccelerationReport();
        GraphEdges original = GraphEdges.of(execGraph);
        try {
            ExecNodeGraph graph = rewriter.rewrite(execGraph, getTableConfig(), report);
            FailOnFallback.check(report, getTableConfig());
            return super.translateToPlan(graph);
        } finally {
            original.restore();
            lastReport = report.render(execGraph);
        }
    }

    /**
     * The last translated plan, one ExecNode per line marked accelerated or stock with the reason
     * ({@link AccelerationReport#render}); null before the first. {@code accelerator explain} reads
     * it (by reflection: this class lives in the planner's class loader) after an EXPLAIN that
     * translates the plan.
     */
    public String lastAccelerationReport() {
        return lastReport;
    }
}
