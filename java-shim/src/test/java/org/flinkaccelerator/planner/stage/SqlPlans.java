package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.planner.delegation.PlannerBase;
import org.apache.flink.table.planner.plan.ExecNodeGraphInternalPlan;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;

/**
 * Plans a golden query's SQL (CREATE TABLEs, then one INSERT) with Flink's real streaming planner
 * and returns the ExecNode graph the planner hook would see. Placeholders (${bootstrap},
 * ${topic:NAME}) get fixed values: the descriptors never contain them.
 */
public final class SqlPlans {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{(?:topic:)?([\\w.-]+)}");

    private final TableEnvironmentImpl env =
            (TableEnvironmentImpl) TableEnvironment.create(EnvironmentSettings.inStreamingMode());

    public ExecNodeGraph plan(String script) {
        List<String> statements = statements(script);
        for (String ddl : statements.subList(0, statements.size() - 1)) {
            env.executeSql(ddl);
        }
        List<Operation> operations = env.getParser().parse(statements.get(statements.size() - 1));
        PlannerBase planner = (PlannerBase) env.getPlanner();
        return ((ExecNodeGraphInternalPlan) planner.compilePlan(List.of((ModifyOperation) operations.get(0))))
                .getExecNodeGraph();
    }

    /** The graph of every INSERT of {@code script} planned together (its other statements run first), as a statement set's. */
    public ExecNodeGraph planTogether(String script) {
        List<ModifyOperation> inserts = new ArrayList<>();
        for (String statement : statements(script)) {
            if (statement.regionMatches(true, 0, "INSERT", 0, 6)) {
                inserts.add((ModifyOperation) env.getParser().parse(statement).get(0));
            } else {
                env.executeSql(statement);
            }
        }
        PlannerBase planner = (PlannerBase) env.getPlanner();
        return ((ExecNodeGraphInternalPlan) planner.compilePlan(inserts)).getExecNodeGraph();
    }

    /** Flink's own translation of a (possibly rewritten) graph to transformations. */
    public List<org.apache.flink.api.dag.Transformation<?>> translate(ExecNodeGraph graph) {
        return ((PlannerBase) env.getPlanner()).translateToPlan(graph);
    }

    /** Sets a table option, as a SET statement would. */
    public SqlPlans set(String key, String value) {
        env.getConfig().set(key, value);
        return this;
    }

    /** The table environment the statements run in, for tests that build tables through the Table API. */
    public TableEnvironment env() {
        return env;
    }

    public org.apache.flink.configuration.ReadableConfig config() {
        return env.getConfig();
    }

    /** Statements end with ';' at the end of a line; '--' lines are comments. */
    static List<String> statements(String script) {
        StringBuilder current = new StringBuilder();
        List<String> out = new ArrayList<>();
        for (String line : script.split("\n")) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String statement = current.toString().strip();
                out.add(fill(statement.substring(0, statement.length() - 1)));
                current.setLength(0);
            }
        }
        return out;
    }

    private static String fill(String statement) {
        Matcher m = PLACEHOLDER.matcher(statement);
        return m.replaceAll(r -> r.group(1).equals("bootstrap") ? "localhost:9092" : r.group(1));
    }
}
