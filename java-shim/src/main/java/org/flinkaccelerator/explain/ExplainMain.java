package org.flinkaccelerator.explain;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ExplainDetail;
import org.apache.flink.table.api.ExplainFormat;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentImpl;
import org.apache.flink.table.delegation.Planner;
import org.apache.flink.table.operations.CreateTableASOperation;
import org.apache.flink.table.operations.ModifyOperation;
import org.apache.flink.table.operations.Operation;
import org.apache.flink.table.operations.StatementSetOperation;
import org.flinkaccelerator.AcceleratorOptions;

/**
 * {@code accelerator explain job.sql}: plans a SQL script's INSERTs with the accelerator on, without
 * running anything, and prints each plan with every operator marked {@code [accelerated: ...]} or
 * {@code [stock: <reason>]}. DDL and other statements run as in the SQL client (they only touch
 * the in-memory catalog); {@code SET 'key' = 'value'} sets a table option. Needs the stock
 * distribution's {@code lib/} with this jar first on the class path, so the planner hook is active.
 *
 * <p>Exit codes: 0 planned, 1 a statement failed (Flink's message on stderr), 2 usage or I/O error,
 * 3 the planner hook is not active.
 */
public final class ExplainMain {
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+'([^']+)'\\s*=\\s*'([^']*)'");
    private static final Pattern RESET = Pattern.compile("(?is)RESET(\\s.*)?");
    private static final Pattern BEGIN_SET = Pattern.compile("(?is)BEGIN\\s+STATEMENT\\s+SET");
    private static final Pattern END_SET = Pattern.compile("(?is)END");
    private static final Pattern EXECUTE_SET = Pattern.compile("(?is)(EXECUTE\\s+)?STATEMENT\\s+SET\\s+BEGIN\\b.*");
    private static final Pattern SET_ENDED = Pattern.compile("(?is).*\\bEND\\s*;\\s*");
    private static final String REPORT_METHOD = "lastAccelerationReport";

    private ExplainMain() {}

    public static void main(String[] args) {
        System.exit(run(args));
    }

    static int run(String[] args) {
        List<String> files = new ArrayList<>(List.of(args));
        String confDir = null;
        if (files.size() >= 2 && files.get(0).equals("--conf")) {
            confDir = files.get(1);
            files = files.subList(2, files.size());
        }
        if (files.isEmpty()) {
            System.err.println("usage: ExplainMain [--conf FLINK_CONF_DIR] JOB.sql...");
            return 2;
        }
        if (files.size() == 1) {
            return explainFile(files.get(0), confDir, System.err);
        }
        // Several scripts, one JVM: each one's plans and errors on stdout between marker lines.
        int worst = 0;
        for (String file : files) {
            System.out.println(FILE_MARKER + file);
            int code = explainFile(file, confDir, System.out);
            System.out.println(EXIT_MARKER + code);
            worst = Math.max(worst, code);
        }
        return worst;
    }

    static final String FILE_MARKER = "##### file ";
    static final String EXIT_MARKER = "##### exit ";

    /** Explains one script in a TableEnvironment of its own; errors go to {@code err}. */
    private static int explainFile(String file, String confDir, PrintStream err) {
        String script;
        try {
            script = Files.readString(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            err.println("cannot read " + file + ": " + e);
            return 2;
        }
        Configuration config = confDir != null ? GlobalConfiguration.loadConfiguration(confDir) : new Configuration();
        forceExplainSettings(config);
        TableEnvironmentImpl env = (TableEnvironmentImpl) TableEnvironment.create(
                EnvironmentSettings.newInstance().inStreamingMode().withConfiguration(config).build());
        int planned = 0;
        List<ModifyOperation> pendingSet = new ArrayList<>();
        List<Statement> pendingStatements = new ArrayList<>();
        for (Statement statement : statements(script)) {
            try {
                if (execute(env, statement, pendingSet, pendingStatements)) {
                    planned++;
                }
            } catch (HookInactive e) {
                err.println(e.getMessage());
                return 3;
            } catch (RuntimeException e) {
                err.println("Statement at line " + statement.line() + " failed: " + messages(e));
                err.println("  " + statement.text().replace("\n", "\n  "));
                return 1;
            }
        }
        if (planned == 0) {
            err.println(file + " has no INSERT statement: nothing to explain");
            return 1;
        }
        return 0;
    }

    /**
     * Runs one statement; true when it was an INSERT (or CTAS, or a statement set), which is
     * explained instead of run. INSERTs between {@code BEGIN STATEMENT SET} and {@code END} are
     * collected in {@code pendingSet} and explained together at {@code END}, as one job.
     */
    private static boolean execute(TableEnvironmentImpl env, Statement statement, List<ModifyOperation> pendingSet,
            List<Statement> pendingStatements) {
        String text = statement.text();
        Matcher set = SET.matcher(text);
        if (set.matches()) {
            env.getConfig().getConfiguration().setString(set.group(1), set.group(2));
            forceExplainSettings(env.getConfig().getConfiguration());
            return false;
        }
        if (RESET.matcher(text).matches()) {
            return false;
        }
        if (BEGIN_SET.matcher(text).matches()) {
            pendingStatements.add(statement);
            return false;
        }
        if (END_SET.matcher(text).matches() && !pendingStatements.isEmpty()) {
            Statement begin = pendingStatements.get(0);
            List<Operation> operations = new ArrayList<>(pendingSet);
            pendingSet.clear();
            pendingStatements.clear();
            explain(env, operations, begin);
            return true;
        }
        List<Operation> operations = env.getParser().parse(text);
        Operation operation = operations.size() == 1 ? operations.get(0) : null;
        if (!pendingStatements.isEmpty() && operation instanceof ModifyOperation modify) {
            pendingSet.add(modify);
            return false;
        }
        if (operation instanceof StatementSetOperation statementSet) {
            explain(env, new ArrayList<>(statementSet.getOperations()), statement);
            return true;
        }
        if (!(operation instanceof ModifyOperation)) {
            env.executeSql(text);
            return false;
        }
        explain(env, operations, statement);
        return true;
    }

    /** Explains the operations as one job and prints the hook's report of it. */
    private static void explain(TableEnvironmentImpl env, List<Operation> operations, Statement statement) {
        List<Operation> sinks = new ArrayList<>();
        for (Operation operation : operations) {
            sinks.add(operation instanceof CreateTableASOperation ctas ? insertOf(env, ctas) : operation);
        }
        // JSON_EXECUTION_PLAN makes Flink translate the plan to transformations, which runs the hook.
        env.explainInternal(sinks, ExplainFormat.TEXT, ExplainDetail.JSON_EXECUTION_PLAN);
        String report = report(env.getPlanner());
        System.out.println("== " + firstLine(statement.text()) + " (line " + statement.line() + ") ==");
        System.out.println(report);
    }

    /**
     * A {@code CREATE TABLE ... AS SELECT} as the SQL client runs it: the table is created (so later
     * statements see it), then the query is inserted into it. Flink 1.20's planner cannot translate
     * the CTAS operation itself ("Unsupported ModifyOperation"), 2.x's can; both translate the insert.
     */
    private static Operation insertOf(TableEnvironmentImpl env, CreateTableASOperation ctas) {
        env.executeInternal(ctas.getCreateTableOperation());
        return ctas.toSinkModifyOperation(env.getCatalogManager());
    }

    /** The planner hook's report of the plan it translated last. */
    private static String report(Planner planner) {
        try {
            Object report = planner.getClass().getMethod(REPORT_METHOD).invoke(planner);
            if (report == null) {
                throw new HookInactive("The planner translated no plan through the accelerator's hook.");
            }
            return report.toString();
        } catch (NoSuchMethodException e) {
            throw new HookInactive("The accelerator's planner hook is not active (planner "
                    + planner.getClass().getName() + "): put the flink-accelerator jar before Flink's"
                    + " lib/ jars on the class path, on a Flink release it supports (docs/deploy.md).");
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Reading the accelerator's report failed", e);
        }
    }

    /** Explain shows what the accelerator would do, so it is on, and a fallback is shown, not thrown. */
    private static void forceExplainSettings(Configuration config) {
        config.set(AcceleratorOptions.ENABLED, true);
        config.set(AcceleratorOptions.FAIL_ON_FALLBACK, false);
    }

    private static String firstLine(String text) {
        String line = text.strip().split("\n", 2)[0];
        return line.length() > 100 ? line.substring(0, 97) + "..." : line;
    }

    /** An exception's message and its causes' messages, each once: Flink's errors nest the useful one. */
    static String messages(Throwable e) {
        StringBuilder out = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? t.getClass().getName() : t.getMessage();
            if (out.indexOf(message) < 0) {
                out.append(out.length() == 0 ? "" : "\nCaused by: ").append(message);
            }
        }
        return out.toString();
    }

    record Statement(int line, String text) {}

    /**
     * The script's statements, as the SQL client splits a file: a statement ends with ';' at the end
     * of a line (an {@code EXECUTE STATEMENT SET BEGIN ... END;} at its {@code END;}); lines starting
     * with '--' are comments.
     */
    static List<Statement> statements(String script) {
        List<Statement> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int start = 0;
        String[] lines = script.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.strip().startsWith("--") || (current.length() == 0 && line.isBlank())) {
                continue;
            }
            if (current.length() == 0) {
                start = i + 1;
            }
            current.append(line).append('\n');
            boolean openSet = EXECUTE_SET.matcher(current.toString().strip()).matches()
                    && !SET_ENDED.matcher(current.toString()).matches();
            if (line.strip().endsWith(";") && !openSet) {
                String text = current.toString().strip();
                out.add(new Statement(start, text.substring(0, text.length() - 1).strip()));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) {
            out.add(new Statement(start, current.toString().strip()));
        }
        return out;
    }

    private static final class HookInactive extends RuntimeException {
        HookInactive(String message) {
            super(message);
        }
    }
}
