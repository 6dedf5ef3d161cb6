package org.flinkaccelerator.planner.stage;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Whether a table's row matches its protobuf message the way flink-protobuf 2.2.0 pairs them
 * (PbSchemaValidationUtils: each row field with the message field of its name) and the sidecar
 * reproduces it. The same checks as the sidecar's {@code accelerator/formats/protobuf_schema.check}
 * and, when decoding, its decoder's presence check; a Java test runs both on the same messages.
 */
final class ProtobufRows {
    private static final Set<LogicalTypeRoot> TEXT = EnumSet.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR);
    /** The Flink type roots Flink accepts for each protobuf scalar type, as far as the sidecar follows. */
    private static final Map<FieldDescriptor.Type, Set<LogicalTypeRoot>> ROOTS = new EnumMap<>(FieldDescriptor.Type.class);
    /** PbFormatUtils.isSimpleType: these follow the primitive default rule when decoding. */
    private static final Set<LogicalTypeRoot> SIMPLE = EnumSet.of(LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.INTEGER,
            LogicalTypeRoot.BIGINT, LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE, LogicalTypeRoot.CHAR,
            LogicalTypeRoot.VARCHAR, LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY);
    /** Field names whose Java accessors Flink derives as protoc names them, and no protoc rename touches. */
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]*(?:_[a-z][a-z0-9]*)*");
    private static final Pattern DIGIT_LETTER = Pattern.compile("[0-9][a-z]");
    private static final Set<String> PROTOC_RENAMED = Set.of("class", "cached_size", "serialized_size",
            "default_instance", "parser", "initialized", "unknown_fields", "descriptor", "descriptor_for_type",
            "all_fields", "parser_for_type", "default_instance_for_type", "type");
    private static final List<String> ACCESSOR_SUFFIXES = List.of("_count", "_list", "_map", "_value", "_bytes",
            "_or_builder", "_builder");

    static {
        for (FieldDescriptor.Type t : List.of(FieldDescriptor.Type.INT32, FieldDescriptor.Type.UINT32,
                FieldDescriptor.Type.SINT32, FieldDescriptor.Type.FIXED32, FieldDescriptor.Type.SFIXED32)) {
            ROOTS.put(t, EnumSet.of(LogicalTypeRoot.INTEGER));
        }
        for (FieldDescriptor.Type t : List.of(FieldDescriptor.Type.INT64, FieldDescriptor.Type.UINT64,
                FieldDescriptor.Type.SINT64, FieldDescriptor.Type.FIXED64, FieldDescriptor.Type.SFIXED64)) {
            ROOTS.put(t, EnumSet.of(LogicalTypeRoot.BIGINT));
        }
        ROOTS.put(FieldDescriptor.Type.BOOL, EnumSet.of(LogicalTypeRoot.BOOLEAN));
        ROOTS.put(FieldDescriptor.Type.FLOAT, EnumSet.of(LogicalTypeRoot.FLOAT));
        ROOTS.put(FieldDescriptor.Type.DOUBLE, EnumSet.of(LogicalTypeRoot.DOUBLE));
        ROOTS.put(FieldDescriptor.Type.STRING, TEXT);
        ROOTS.put(FieldDescriptor.Type.BYTES, EnumSet.of(LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY));
        // Flink also takes TINYINT, SMALLINT and BIGINT for enums, but its generated code then fails: stock.
        ROOTS.put(FieldDescriptor.Type.ENUM, EnumSet.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
                LogicalTypeRoot.INTEGER));
    }

    private ProtobufRows() {}

    /**
     * Adds to {@code problems} why {@code row} over {@code message} is not reproduced. When decoding,
     * simple fields read their defaults when {@code primitiveDefaults} (read-default-values, or a
     * proto3 top-level file), rows, arrays and maps only with {@code readDefaults}.
     */
    static void check(Descriptor message, RowType row, boolean decoding, boolean primitiveDefaults,
            boolean readDefaults, List<String> problems) {
        int before = problems.size();
        checkMessage(message, row, "", problems);
        if (decoding && problems.size() == before) {
            checkPresence(message, row, "", primitiveDefaults, readDefaults, problems);
        }
    }

    private static void checkMessage(Descriptor message, RowType row, String path, List<String> problems) {
        for (RowType.RowField f : row.getFields()) {
            String name = f.getName();
            String where = path.isEmpty() ? name : path + "." + name;
            FieldDescriptor fd = message.findFieldByName(name);
            if (fd == null) {
                problems.add("column " + where + " does not exist in protobuf message " + message.getFullName());
            } else if (!NAME.matcher(name).matches() || DIGIT_LETTER.matcher(name).find()
                    || PROTOC_RENAMED.contains(name)) {
                problems.add(where + ": the accelerator only reproduces lower_snake_case field names whose Java"
                        + " accessors Flink and protoc name alike");
            } else if (ACCESSOR_SUFFIXES.stream().anyMatch(s -> name.endsWith(s)
                    && message.findFieldByName(name.substring(0, name.length() - s.length())) != null)) {
                problems.add(where + ": protoc renames accessors of this field (its name extends another field's"
                        + " name by an accessor suffix)");
            } else if (fd.getType() == FieldDescriptor.Type.GROUP) {
                problems.add(where + ": proto2 groups are not reproduced");
            } else if (fd.isRequired()) {
                problems.add(where + ": required fields are not reproduced (Flink fails on messages missing them)");
            } else {
                checkField(fd, f.getType(), where, problems);
            }
        }
    }

    private static void checkField(FieldDescriptor fd, LogicalType t, String where, List<String> problems) {
        if (fd.isMapField()) {
            if (t.getTypeRoot() != LogicalTypeRoot.MAP) {
                problems.add(where + ": Flink expects a MAP for protobuf map field " + fd.getName());
                return;
            }
            FieldDescriptor key = fd.getMessageType().findFieldByName("key");
            FieldDescriptor value = fd.getMessageType().findFieldByName("value");
            MapType map = (MapType) t;
            if (checkScalar(key, map.getKeyType(), where + " key", problems)) {
                if (value.getType() == FieldDescriptor.Type.ENUM && value.getEnumType().isClosed()) {
                    problems.add(where + ": map values of a closed (proto2) enum are not reproduced");
                } else {
                    checkSingle(value, map.getValueType(), where + " value", problems);
                }
            }
        } else if (fd.isRepeated()) {
            if (t.getTypeRoot() != LogicalTypeRoot.ARRAY) {
                problems.add(where + ": Flink expects an ARRAY for repeated protobuf field " + fd.getName());
                return;
            }
            checkSingle(fd, ((ArrayType) t).getElementType(), where + "[]", problems);
        } else {
            checkSingle(fd, t, where, problems);
        }
    }

    private static void checkSingle(FieldDescriptor fd, LogicalType t, String where, List<String> problems) {
        if (fd.getType() == FieldDescriptor.Type.MESSAGE) {
            if (t.getTypeRoot() != LogicalTypeRoot.ROW) {
                problems.add(where + ": Flink expects a ROW for protobuf message " + fd.getMessageType().getFullName());
                return;
            }
            checkMessage(fd.getMessageType(), (RowType) t, where, problems);
            return;
        }
        checkScalar(fd, t, where, problems);
    }

    /** False (with a problem) unless {@code t} is a type Flink maps this scalar field to and it is reproduced. */
    private static boolean checkScalar(FieldDescriptor fd, LogicalType t, String where, List<String> problems) {
        Set<LogicalTypeRoot> roots = ROOTS.get(fd.getType());
        if (roots == null) {
            problems.add(where + ": protobuf field type " + fd.getType() + " is not reproduced");
            return false;
        }
        if (!roots.contains(t.getTypeRoot())) {
            problems.add(where + ": Flink does not map protobuf type " + fd.getType().name().toLowerCase() + " to "
                    + t.asSummaryString() + " (only " + roots + ")");
            return false;
        }
        if (fd.getType() == FieldDescriptor.Type.ENUM) {
            Set<Integer> numbers = new HashSet<>();
            for (EnumValueDescriptor value : fd.getEnumType().getValues()) {
                if (!numbers.add(value.getNumber())) {
                    problems.add(where + ": enum " + fd.getEnumType().getFullName() + " has aliases (allow_alias),"
                            + " which are not reproduced");
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Without read-default-values Flink's generated decoder asks has&lt;Field&gt;() of fields it does
     * not read defaults for; a field without presence (proto3 implicit) has no such method, and
     * Flink then fails to compile its converter.
     */
    private static void checkPresence(Descriptor message, RowType row, String path, boolean primitiveDefaults,
            boolean readDefaults, List<String> problems) {
        for (RowType.RowField f : row.getFields()) {
            FieldDescriptor fd = message.findFieldByName(f.getName());
            String where = path.isEmpty() ? f.getName() : path + "." + f.getName();
            LogicalType type = f.getType();
            boolean readsDefault = SIMPLE.contains(type.getTypeRoot()) ? primitiveDefaults : readDefaults;
            if (!readsDefault && !fd.isRepeated() && !fd.hasPresence()) {
                problems.add(where + ": without read-default-values Flink's generated code asks for the presence of"
                        + " a field that has none, and fails");
            }
            LogicalType single = type.getTypeRoot() == LogicalTypeRoot.ARRAY ? ((ArrayType) type).getElementType() : type;
            if (fd.getType() == FieldDescriptor.Type.MESSAGE && single.getTypeRoot() == LogicalTypeRoot.ROW) {
                checkPresence(fd.getMessageType(), (RowType) single, where, primitiveDefaults, readDefaults, problems);
            }
            if (type.getTypeRoot() == LogicalTypeRoot.MAP
                    && ((MapType) type).getValueType().getTypeRoot() == LogicalTypeRoot.ROW) {
                checkPresence(fd.getMessageType().findFieldByName("value").getMessageType(),
                        (RowType) ((MapType) type).getValueType(), where, primitiveDefaults, readDefaults, problems);
            }
        }
    }
}
