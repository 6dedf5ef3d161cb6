package org.flinkaccelerator.planner;

import java.util.Set;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.delegation.PlannerFactory;
import org.apache.flink.table.planner.delegation.DefaultPlannerFactory;
import org.flinkaccelerator.planner.rules.RewriteRules;

/**
 * The planner factory the shim's PlannerModule creates instead of discovering stock's. Streaming
 * mode gets {@link AcceleratedStreamPlanner}; batch mode gets stock's planner, untouched.
 */
public final class AcceleratedPlannerFactory implements PlannerFactory {
    private final DefaultPlannerFactory stock = new DefaultPlannerFactory();

    @Override
    public String factoryIdentifier() {
        return stock.factoryIdentifier();
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return stock.requiredOptions();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return stock.optionalOptions();
    }

    @Override
    public Planner create(Context context) {
        if (context.getTableConfig().get(ExecutionOptions.RUNTIME_MODE) != RuntimeExecutionMode.STREAMING) {
            return stock.create(context);
        }
        return new AcceleratedStreamPlanner(
                context.getExecutor(),
                context.getTableConfig(),
                context.getModuleManager(),
                context.getFunctionCatalog(),
                context.getCatalogManager(),
                context.getClassLoader(),
                new GraphRewriter(RewriteRules.all()));
    }
}
