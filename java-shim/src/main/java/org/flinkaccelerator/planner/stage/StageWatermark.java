package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flinkaccelerator.stage.ProtoJson;

/**
 * A rows stage's {@code watermark} section (docs/architecture.md, "The stage contract"): a second
 * plan over the same decoded table whose columns ({@code fields}, then the message index) the
 * sidecar returns per message as epoch milliseconds, for the operator to generate the source's
 * watermarks from.
 */
record StageWatermark(List<StageField> fields, Plan plan) {
    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", fields.stream().map(StageField::tree).collect(Collectors.toList()));
        out.put("plan", ProtoJson.tree(plan));
        return out;
    }
}
