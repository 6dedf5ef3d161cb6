package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.Map;

/** One column of a stage's input or output batch; the type is Flink's serializable type text. */
public record StageField(String name, String type) {
    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("type", type);
        return out;
    }
}
