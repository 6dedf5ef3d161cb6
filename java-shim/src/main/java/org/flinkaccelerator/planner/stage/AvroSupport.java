package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Which tables of Flink's {@code avro} format (flink-avro 2.2.1) the sidecar reproduces exactly.
 * The sidecar checks the same before it opens a stage ({@code accelerator.formats.avro.supported});
 * this side must never accept more than it, or the job would fail at start instead of running
 * stock, so it is the stricter of the two where they could differ.
 */
final class AvroSupport {
    private static final String ENCODING = "avro.encoding";
    private static final String LEGACY_TIMESTAMPS = "avro.timestamp_mapping.legacy";
    /** Flink names each nested record after its path; Avro accepts only these names. */
    private static final Pattern AVRO_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** The record name Flink's AvroSchemaConverter gives the top-level row. */
    private static final String TOP_RECORD = "record";

    private AvroSupport() {}

    /** Why the value row {@code row} with the table's {@code options} is not reproduced (empty: it is). */
    static List<String> problems(RowType row, Map<String, String> options, boolean decoding) {
        List<String> problems = new ArrayList<>();
        boolean legacy = true;
        for (Map.Entry<String, String> option : options.entrySet()) {
            String key = option.getKey(); // KafkaValueFormat gives the format's own keys ('value.' dropped)
            String value = option.getValue().toLowerCase(Locale.ROOT);
            if (key.equals(ENCODING)) {
                if (!value.equals("binary")) {
                    problems.add("'" + option.getKey() + "' = '" + option.getValue() + "' is not accelerated (only binary)");
                }
            } else if (key.equals(LEGACY_TIMESTAMPS)) {
                legacy = !value.equals("false");
            } else {
                problems.add("avro option '" + option.getKey() + "' is not accelerated");
            }
        }
        check(row, TOP_RECORD, false, legacy, new HashSet<>(), problems, new Position(0, decoding));
        return problems;
    }

    /** How deep in rows a type is (0: the value row, 1: its columns) and whether it is decoded. */
    private record Position(int depth, boolean decoding) {
        Position deeper() {
            return new Position(depth + 1, decoding);
        }
    }

    private static void check(LogicalType type, String recordName, boolean inCollection, boolean legacy,
            Set<String> recordNames, List<String> problems, Position at) {
        switch (type.getTypeRoot()) {
            case BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, FLOAT, DOUBLE, DECIMAL, CHAR, VARCHAR, BINARY,
                    VARBINARY, DATE -> { }
            case TIME_WITHOUT_TIME_ZONE -> {
                if (((TimeType) type).getPrecision() > 3) {
                    problems.add(type.asSummaryString() + ": Avro holds TIME to milliseconds");
                }
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE -> {
                int limit = legacy || inCollection ? 3 : 6;
                if (((TimestampType) type).getPrecision() > limit) {
                    problems.add(type.asSummaryString() + " is not accelerated in avro (at most TIMESTAMP(" + limit
                            + ") here)");
                }
            }
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
                if (legacy || inCollection) {
                    problems.add(type.asSummaryString() + ": Flink's avro format has no schema for it with the legacy"
                            + " timestamp mapping (or inside an ARRAY or MAP)");
                } else if (((LocalZonedTimestampType) type).getPrecision() > 6) {
                    problems.add(type.asSummaryString() + " is not accelerated in avro (at most TIMESTAMP_LTZ(6))");
                } else if (at.decoding() && at.depth() > 1) {
                    problems.add(type.asSummaryString() + " in a nested row: Flink's avro format does not decode it");
                }
            }
            case ROW -> {
                if (!recordNames.add(recordName)) {
                    problems.add("two nested rows get the Avro record name '" + recordName + "'");
                }
                for (RowType.RowField field : ((RowType) type).getFields()) {
                    if (!AVRO_NAME.matcher(field.getName()).matches()) {
                        problems.add("field name '" + field.getName() + "' is not an Avro name");
                    }
                    check(field.getType(), recordName + "_" + field.getName(), inCollection, legacy, recordNames,
                            problems, at.deeper());
                }
            }
            case ARRAY -> check(((ArrayType) type).getElementType(), recordName, true, legacy, recordNames, problems,
                    at.deeper());
            case MAP -> {
                LogicalType key = ((MapType) type).getKeyType();
                if (!(key.getTypeRoot() == org.apache.flink.table.types.logical.LogicalTypeRoot.VARCHAR
                        || key.getTypeRoot() == org.apache.flink.table.types.logical.LogicalTypeRoot.CHAR)) {
                    problems.add(type.asSummaryString() + ": Avro maps have string keys");
                }
                check(((MapType) type).getValueType(), recordName, true, legacy, recordNames, problems, at.deeper());
            }
            default -> problems.add(type.asSummaryString() + " is not accelerated in avro");
        }
    }
}
