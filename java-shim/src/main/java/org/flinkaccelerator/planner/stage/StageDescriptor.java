package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.flinkaccelerator.stage.ProtoJson;

/**
 * What the sidecar needs to run one segment (docs/architecture.md, "The stage contract"): the
 * input batch's columns, how to decode the message bytes (and keys: {@code decodeKey}, else null),
 * the Substrait plan over the decoded table, how to encode its result (and its keys), and the
 * output batch's columns. A rows stage has no {@code encode}: its output is the plan's result
 * rows, handed to stock Flink operators ({@link RowsOutput}). An encode stage has no {@code
 * decode}: its input is the rows of stock Flink operators, and its descriptor says {@code "kind":
 * "encode"}. A rows stage over a watermarked source has a {@code watermark} section (else null).
 * A rows stage over a source several operators read has one output per use: {@code plan} and
 * {@code output} are the first, {@code branches} the others (empty otherwise).
 * A stage that writes messages checks its result rows as Flink's sink does ({@code sinkChecks}: the
 * NOT NULL columns, then the rowtime; {@link SinkChecks#NONE} otherwise).
 */
public record StageDescriptor(String name, List<StageField> input, FormatSpec decode, KeySpec decodeKey, Plan plan,
        FormatSpec encode, KeySpec encodeKey, List<StageField> output, StageWatermark watermark,
        List<StageBranch> branches, SinkChecks sinkChecks) {
    /** Version of the descriptor layout; the sidecar refuses others. */
    public static final int PROTOCOL = 1;
    /** The sidecar's stage kind of a descriptor without {@code decode}: an encode stage. */
    static final String ENCODE_KIND = "encode";

    public StageDescriptor {
        branches = List.copyOf(branches);
        sinkChecks = sinkChecks == null ? SinkChecks.NONE : sinkChecks;
        if (!branches.isEmpty() && (decode == null || encode != null)) {
            throw new IllegalArgumentException("only a rows stage has branches");
        }
    }

    /** A stage with one output. */
    public StageDescriptor(String name, List<StageField> input, FormatSpec decode, KeySpec decodeKey, Plan plan,
            FormatSpec encode, KeySpec encodeKey, List<StageField> output, StageWatermark watermark) {
        this(name, input, decode, decodeKey, plan, encode, encodeKey, output, watermark, List.of(), SinkChecks.NONE);
    }

    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("protocol", PROTOCOL);
        if (decode == null) {
            out.put("kind", ENCODE_KIND);
        }
        out.put("name", name);
        out.put("input", fields(input));
        if (decode != null) {
            out.put("decode", decode.tree());
        }
        if (decodeKey != null) {
            out.put("decode_key", decodeKey.tree());
        }
        out.put("plan", ProtoJson.tree(plan));
        out.put("encode", encode == null ? null : encode.tree());
        if (encodeKey != null) {
            out.put("encode_key", encodeKey.tree());
        }
        out.put("output", fields(output));
        if (watermark != null) {
            out.put("watermark", watermark.tree());
        }
        if (!branches.isEmpty()) {
            out.put("branches", branches.stream().map(b -> {
                Map<String, Object> branch = new LinkedHashMap<>();
                branch.put("plan", ProtoJson.tree(b.plan()));
                branch.put("output", fields(b.output()));
                return branch;
            }).collect(Collectors.toList()));
        }
        sinkChecks.putInto(out);
        return out;
    }

    private static Map<String, Object> fields(List<StageField> fields) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("fields", fields.stream().map(StageField::tree).collect(Collectors.toList()));
        return out;
    }
}
