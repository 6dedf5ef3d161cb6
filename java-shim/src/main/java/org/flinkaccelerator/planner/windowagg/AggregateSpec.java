package org.flinkaccelerator.planner.windowagg;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One aggregate as the sidecar runs it: {@code function} is count1, count, sum, min, max or avg;
 * {@code arg} the input field it reads: its argument column in phase single (null for count1), its
 * partial accumulator's first column in phase global; {@code acc} its accumulator's (first
 * field's) type; {@code emit} false for a COUNT(*) the planner inserted only to tell empty windows;
 * {@code countArg} AVG's partial count column in phase global, else null; {@code filter} the
 * BOOLEAN column of its FILTER (WHERE ...) clause in phase single, else null. Both are in the tree
 * only when set, so the state fingerprints of aggregates without them stay as they were.
 */
public record AggregateSpec(String function, String arg, String acc, boolean emit, String countArg, String filter) {
    /**
     * The same aggregate reading its partial accumulator from {@code columns} (phase global), with
     * no filter: the local phase applied it, and merging partials has none.
     */
    public AggregateSpec partial(List<String> columns) {
        return new AggregateSpec(function, columns.get(0), acc, emit, columns.size() > 1 ? columns.get(1) : null, null);
    }

    public Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("function", function);
        out.put("arg", arg);
        out.put("acc", acc);
        out.put("emit", emit);
        if (countArg != null) {
            out.put("count_arg", countArg);
        }
        if (filter != null) {
            out.put("filter", filter);
        }
        return out;
    }
}
