package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * Which json tables the sidecar reproduces exactly: the twin of {@code accelerator.formats.json.supported}
 * (which the sidecar does not ask before opening a json stage). Maps need string keys, and the
 * decoder does not reproduce Flink's tree-based decoder; a segment or rows stage that needs those
 * stays stock rather than failing at its start.
 */
final class JsonSupport {
    static final String JSON_PARSER = "json.decode.json-parser.enabled";

    private JsonSupport() {}

    static List<String> problems(RowType row, Map<String, String> options, boolean decoding) {
        List<String> problems = new ArrayList<>();
        if (decoding && "false".equals(options.getOrDefault(JSON_PARSER, "true").trim().toLowerCase(Locale.ROOT))) {
            problems.add("'" + JSON_PARSER + "' = 'false' selects Flink's tree-based json decoder, which the"
                    + " accelerator does not reproduce");
        }
        for (RowType.RowField field : row.getFields()) {
            String problem = problem(field.getType(), field.getName());
            if (problem != null) {
                problems.add(problem);
            }
        }
        return problems;
    }

    private static String problem(LogicalType type, String path) {
        switch (type.getTypeRoot()) {
            case ARRAY:
                return problem(type.getChildren().get(0), path + "[]");
            case MAP: {
                LogicalTypeRoot key = type.getChildren().get(0).getTypeRoot();
                if (key != LogicalTypeRoot.CHAR && key != LogicalTypeRoot.VARCHAR) {
                    return path + ": Flink's json format only has string map keys";
                }
                return problem(type.getChildren().get(1), path + "{}");
            }
            case ROW: {
                RowType row = (RowType) type;
                for (RowType.RowField field : row.getFields()) {
                    String problem = problem(field.getType(), path + "." + field.getName());
                    if (problem != null) {
                        return problem;
                    }
                }
                return null;
            }
            default:
                return null;
        }
    }
}
