package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.FlinkVersionSupport;

/**
 * Which json tables the sidecar reproduces exactly: the twin of {@code accelerator.formats.json.supported}
 * (which the sidecar does not ask before opening a json stage). Maps need string keys, and the
 * decoder does not reproduce Flink's tree-based decoder, nor TIME as the running release reads and
 * writes it when that is not 2.2's way, nor 1.20's plain DECIMAL numbers (without trailing zeros); a
 * segment or rows stage that needs those stays stock rather than failing at its start. The plain
 * DECIMAL rule is the Python function's too, given the release ({@code flink_version};
 * JsonSupportTest asks both).
 */
final class JsonSupport {
    static final String JSON_PARSER = "json.decode.json-parser.enabled";
    static final String PLAIN_DECIMALS = "json.encode.decimal-as-plain-number";

    private JsonSupport() {}

    static List<String> problems(RowType row, Map<String, String> options, boolean decoding) {
        return problems(row, options, decoding, EnvironmentInformation.getVersion());
    }

    static List<String> problems(RowType row, Map<String, String> options, boolean decoding, String flinkVersion) {
        List<String> problems = new ArrayList<>();
        if (decoding && "false".equals(options.getOrDefault(JSON_PARSER, "true").trim().toLowerCase(Locale.ROOT))) {
            problems.add("'" + JSON_PARSER + "' = 'false' selects Flink's tree-based json decoder, which the"
                    + " accelerator does not reproduce");
        }
        boolean timeDropsFraction = FlinkVersionSupport.jsonTimeDropsFraction(flinkVersion);
        boolean plainDecimalsLoseScale = !decoding && !FlinkVersionSupport.jsonPlainDecimalKeepsScale(flinkVersion)
                && "true".equals(options.getOrDefault(PLAIN_DECIMALS, "false").trim().toLowerCase(Locale.ROOT));
        for (RowType.RowField field : row.getFields()) {
            String problem = problem(field.getType(), field.getName(), timeDropsFraction, flinkVersion);
            if (problem != null) {
                problems.add(problem);
            } else if (plainDecimalsLoseScale && holdsDecimal(field.getType())) {
                problems.add(field.getName() + ": Flink " + flinkVersion + "'s json format under '" + PLAIN_DECIMALS
                        + "' writes DECIMAL without its trailing zeros, which the accelerator does not reproduce (it"
                        + " writes 2.x's, with the column's scale)");
            }
        }
        return problems;
    }

    private static boolean holdsDecimal(LogicalType type) {
        return type.getTypeRoot() == LogicalTypeRoot.DECIMAL
                || type.getChildren().stream().anyMatch(JsonSupport::holdsDecimal);
    }

    private static String problem(LogicalType type, String path, boolean timeDropsFraction, String flinkVersion) {
        switch (type.getTypeRoot()) {
            case TIME_WITHOUT_TIME_ZONE:
                return timeDropsFraction ? null : path + ": Flink " + flinkVersion + "'s json format keeps TIME's"
                        + " fraction of a second, which the accelerator does not reproduce yet (it reproduces 2.2's,"
                        + " which drops it)";
            case ARRAY:
                return problem(type.getChildren().get(0), path + "[]", timeDropsFraction, flinkVersion);
            case MAP: {
                LogicalTypeRoot key = type.getChildren().get(0).getTypeRoot();
                if (key != LogicalTypeRoot.CHAR && key != LogicalTypeRoot.VARCHAR) {
                    return path + ": Flink's json format only has string map keys";
                }
                return problem(type.getChildren().get(1), path + "{}", timeDropsFraction, flinkVersion);
            }
            case ROW: {
                RowType row = (RowType) type;
                for (RowType.RowField field : row.getFields()) {
                    String problem = problem(field.getType(), path + "." + field.getName(), timeDropsFraction,
                            flinkVersion);
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
