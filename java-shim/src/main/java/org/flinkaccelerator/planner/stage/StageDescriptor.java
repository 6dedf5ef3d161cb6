package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flinkaccelerator.stage.ProtoJson;

/**
 * What the sidecar needs to run one segment (docs/architecture.md, "The stage contract"): the
 * input batch's columns, how to decode the message bytes, the Substrait plan over the decoded
 * table, how to encode its result, and the output batch's columns.
 */
public record StageDescriptor(String name, List<StageField> input, FormatSpec decode, Plan plan, FormatSpec encode,
        List<StageField> output) {
    /** Version of the descriptor layout; the sidecar refuses others. */
    public static final int PROTOCOL = 1;

    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", PROTOCOL);
        out.put("name", name);
        out.put("input", fields(input));
        out.put("decode", decode.tree());
        out.put("plan", ProtoJson.tree(plan));
        out.put("encode", encode.tree());
        out.put("output", fields(output));
        return out;
    }

    private static Map<String, Object> fields(List<StageField> fields) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", fields.stream().map(StageField::tree).collect(Collectors.toList()));
        return out;
    }
}
