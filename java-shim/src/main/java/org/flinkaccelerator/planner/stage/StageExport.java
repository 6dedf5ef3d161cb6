package org.flinkaccelerator.planner.stage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flinkaccelerator.stage.JsonText;

/**
 * The outcome of exporting one segment: its descriptor when every part of it is reproduced
 * exactly, otherwise every reason it stays on stock Flink.
 */
public record StageExport(String name, StageDescriptor descriptor, List<FallbackReason> fallback) {
    public StageExport {
        fallback = List.copyOf(fallback);
    }

    public boolean accelerated() {
        return descriptor != null;
    }

    /** The descriptor's JSON text, or a {"protocol", "name", "fallback"} document of the reasons. */
    public String toJson() {
        if (accelerated()) {
            return JsonText.pretty(descriptor.tree());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", StageDescriptor.PROTOCOL);
        out.put("name", name);
        out.put("fallback", fallback.stream().map(FallbackReason::tree).collect(Collectors.toList()));
        return JsonText.pretty(out);
    }
}
