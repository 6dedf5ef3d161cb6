package org.flinkaccelerator.planner.windowagg;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One aggregate as the sidecar runs it: {@code function} is count1, count, sum, min or max;
 * {@code arg} the input field it reads: its argument column in phase single (null for count1), its
 * partial accumulator column in phase global; {@code acc} its accumulator's type;
 * {@code emit} false for a COUNT(*) the planner inserted only to tell empty windows.
 */
public record AggregateSpec(String function, String arg, String acc, boolean emit) {
    public Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("function", function);
        out.put("arg", arg);
        out.put("acc", acc);
        out.put("emit", emit);
        return out;
    }
}
