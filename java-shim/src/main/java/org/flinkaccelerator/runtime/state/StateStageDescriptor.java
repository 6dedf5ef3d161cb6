package org.flinkaccelerator.runtime.state;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;

/**
 * Reads and checks the descriptor JSON of a stateful stage (window_agg, group_agg) as the
 * operator specs carry it: its kind, its state fingerprint, its input columns after the transport
 * columns, and its field lists as Flink row types.
 */
public final class StateStageDescriptor {
    private StateStageDescriptor() {}

    /** The descriptor of stage kind {@code kind}; anything else than JSON fails naming the kind. */
    public static JsonNode parse(String json, String kind) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new IllegalArgumentException("the " + kind + " descriptor is not JSON: " + e.getMessage(), e);
        }
    }

    /** {@code json}, a descriptor of stage kind {@code kind}, with the JSON {@code sectionJson} as its entry {@code name}. */
    public static String withSection(String json, String kind, String name, String sectionJson) {
        ObjectNode descriptor = (ObjectNode) parse(json, kind);
        descriptor.set(name, parse(sectionJson, name));
        return descriptor.toString();
    }

    /** Fails unless {@code descriptor} is of stage kind {@code kind}. */
    public static void checkKind(JsonNode descriptor, String kind) {
        if (!kind.equals(descriptor.path("kind").asText())) {
            throw new IllegalArgumentException("not a " + kind + " descriptor: kind " + descriptor.path("kind"));
        }
    }

    /** Fails unless the state fingerprint is there and every input column after the transport ones is an input field. */
    public static void checkStateAndInput(JsonNode descriptor, int transportColumns, RowType inputType) {
        if (descriptor.path("state").path("fingerprint").asText().length() != 64) {
            throw new IllegalArgumentException("the descriptor has no 64-digit state.fingerprint");
        }
        for (String name : argumentNames(descriptor, transportColumns)) {
            if (!inputType.getFieldNames().contains(name)) {
                throw new IllegalArgumentException("the descriptor's input column '" + name + "' is not a field of "
                        + inputType);
            }
        }
    }

    /** The input columns after the {@code transportColumns} the operator fills itself. */
    public static List<String> argumentNames(JsonNode descriptor, int transportColumns) {
        List<String> names = new ArrayList<>();
        JsonNode fields = descriptor.path("input").path("fields");
        for (int i = transportColumns; i < fields.size(); i++) {
            names.add(fields.get(i).path("name").asText());
        }
        return names;
    }

    /** The row of the descriptor's {@code fields} from index {@code from} on. */
    public static RowType fieldsType(JsonNode fields, int from) {
        List<RowType.RowField> out = new ArrayList<>();
        for (int i = from; i < fields.size(); i++) {
            LogicalType type = LogicalTypeParser.parse(fields.get(i).path("type").asText(),
                    StateStageDescriptor.class.getClassLoader());
            out.add(new RowType.RowField(fields.get(i).path("name").asText(), type));
        }
        return new RowType(false, out);
    }
}
