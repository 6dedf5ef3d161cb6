package org.flinkaccelerator.planner.substrait;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.sql.SqlKind;

/**
 * Every Flink function the accelerator knows, answering for a call: run as a DataFusion
 * built-in, run as the sidecar's own UDF, or not reproduced (and why). A function that is not
 * listed is not reproduced either. docs/functions.md is rendered from this registry.
 */
public final class FunctionRegistry {
    private final List<FunctionEntry> entries;
    private final Map<String, FunctionEntry> byKey = new HashMap<>();

    private FunctionRegistry(List<FunctionEntry> entries) {
        this.entries = List.copyOf(entries);
        for (FunctionEntry entry : entries) {
            for (String key : entry.keys()) {
                if (byKey.put(key, entry) != null) {
                    throw new IllegalStateException("two registry entries for " + key);
                }
            }
        }
    }

    public static FunctionRegistry standard() {
        List<FunctionEntry> all = new ArrayList<>();
        all.addAll(ArithmeticFunctions.entries());
        all.addAll(ComparisonFunctions.entries());
        all.addAll(LogicalFunctions.entries());
        all.add(SearchExpansion.entry());
        all.addAll(StringFunctions.entries());
        all.addAll(RegexpFunctions.entries());
        all.addAll(TemporalFunctions.entries());
        all.addAll(CollectionFunctions.entries());
        all.addAll(UnsupportedFunctions.entries());
        return new FunctionRegistry(all);
    }

    /** A registry of just {@code entries} (tests). */
    static FunctionRegistry of(List<FunctionEntry> entries) {
        return new FunctionRegistry(entries);
    }

    public List<FunctionEntry> entries() {
        return entries;
    }

    Optional<FunctionEntry> find(RexCall call) {
        return Optional.ofNullable(byKey.get(key(call)));
    }

    /** Operators by their SqlKind (binary and unary minus share the name "-"), functions by name. */
    static String key(RexCall call) {
        SqlKind kind = call.getKind();
        return kind == SqlKind.OTHER_FUNCTION || kind == SqlKind.OTHER
                ? call.getOperator().getName().toUpperCase(Locale.ROOT) : kind.name();
    }
}
