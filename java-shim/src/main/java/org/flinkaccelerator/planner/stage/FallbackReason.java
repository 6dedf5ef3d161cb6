package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flinkaccelerator.stage.JsonText;

/** Why (part of) a segment stays on stock Flink: where in the segment, and what is not reproduced. */
public record FallbackReason(String where, String why) {
    public Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("where", where);
        out.put("why", why);
        return out;
    }

    /** The JSON document of a stateful operator of stage kind {@code kind} that stays stock for {@code reasons}. */
    public static String document(String kind, String name, List<FallbackReason> reasons) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("kind", kind);
        out.put("name", name);
        out.put("fallback", reasons.stream().map(FallbackReason::tree).toList());
        return JsonText.pretty(out);
    }

    @Override
    public String toString() {
        return where + ": " + why;
    }
}
