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

/**
 * Stock's streaming planner with one seam: the ExecNode graph passes through the
 * {@link GraphRewriter} before Flink translates it to transformations. The flag is read from the
 * TableConfig on every plan, so config.yaml, -D and SET all count. This also runs for EXPLAIN and
 * EXECUTE PLAN, so rewriting must have no side effects.
 */
public class AcceleratedStreamPlanner extends StreamPlanner {
    private final GraphRewriter rewriter;

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
        ExecNodeGraph graph = activation.keepsStockPlan() ? execGraph : rewriter.rewrite(execGraph, getTableConfig());
        return super.translateToPlan(graph);
    }
}
