package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.Map;

/** Why (part of) a segment stays on stock Flink: where in the segment, and what is not reproduced. */
public record FallbackReason(String where, String why) {
    public Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("where", where);
        out.put("why", why);
        return out;
    }

    @Override
    public String toString() {
        return where + ": " + why;
    }
}
