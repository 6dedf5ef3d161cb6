package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.ArrayList;
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
 * {@code localPhases}: per output of a rows stage (0: {@code plan}, i: {@code branches} entry i-1),
 * the {@code local_window_agg} section of a local window aggregate folded into it, whose partial
 * rows that output answers instead of the plan's rows (docs/design/stateful-window-aggregate.md,
 * "Increment 2: the local phase in the rows stage"); empty otherwise.
 */
public record StageDescriptor(String name, List<StageField> input, FormatSpec decode, KeySpec decodeKey, Plan plan,
        FormatSpec encode, KeySpec encodeKey, List<StageField> output, StageWatermark watermark,
        List<StageBranch> branches, SinkChecks sinkChecks, Map<Integer, Map<String, Object>> localPhases) {
    /** The descriptor member of a folded local window aggregate. */
    public static final String LOCAL_PHASE = "local_window_agg";

    /** Version of the descriptor layout; the sidecar refuses others. */
    public static final int PROTOCOL = 1;
    /** The sidecar's stage kind of a descriptor without {@code decode}: an encode stage. */
    static final String ENCODE_KIND = "encode";

    public StageDescriptor {
        localPhases = localPhases == null ? Map.of() : Map.copyOf(localPhases);
        if (!localPhases.isEmpty() && (decode == null || encode != null)) {
            throw new IllegalArgumentException("only a rows stage folds a local window aggregate");
        }
        branches = List.copyOf(branches);
        sinkChecks = sinkChecks == null ? SinkChecks.NONE : sinkChecks;
        if (!branches.isEmpty() && (decode == null || encode != null)) {
            throw new IllegalArgumentException("only a rows stage has branches");
        }
    }

    /** A stage without folded local window aggregates. */
    public StageDescriptor(String name, List<StageField> input, FormatSpec decode, KeySpec decodeKey, Plan plan,
            FormatSpec encode, KeySpec encodeKey, List<StageField> output, StageWatermark watermark,
            List<StageBranch> branches, SinkChecks sinkChecks) {
        this(name, input, decode, decodeKey, plan, encode, encodeKey, output, watermark, branches, sinkChecks, Map.of());
    }

    /** This rows stage with {@code sections} ({@code local_window_agg}, by output) folded into its outputs. */
    public StageDescriptor withLocalPhases(Map<Integer, Map<String, Object>> sections) {
        return new StageDescriptor(name, input, decode, decodeKey, plan, encode, encodeKey, output, watermark, branches,
                sinkChecks, sections);
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
        if (localPhases.containsKey(0)) {
            out.put(LOCAL_PHASE, localPhases.get(0));
        }
        if (watermark != null) {
            out.put("watermark", watermark.tree());
        }
        if (!branches.isEmpty()) {
            List<Map<String, Object>> trees = new ArrayList<>();
            for (int i = 0; i < branches.size(); i++) {
                Map<String, Object> branch = new LinkedHashMap<>();
                branch.put("plan", ProtoJson.tree(branches.get(i).plan()));
                branch.put("output", fields(branches.get(i).output()));
                if (localPhases.containsKey(i + 1)) {
                    branch.put(LOCAL_PHASE, localPhases.get(i + 1));
                }
                trees.add(branch);
            }
            out.put("branches", trees);
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
