package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Type;
import java.util.List;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.arrow.ArrowTypes;

/**
 * Flink logical types as Substrait types, in the Arrow layout the sidecar holds them in
 * (accelerator/formats/types.py, runtime/arrow/ArrowTypes): a TIMESTAMP or TIMESTAMP_LTZ of any
 * precision is the struct of Flink's TimestampData pair (millis i64, nanos i32), so one
 * representation holds every value Flink does and raising the precision changes nothing; TIME
 * as milliseconds of the day, as Flink holds it; ARRAY as a list, MAP as a map with NOT NULL keys.
 */
public final class SubstraitTypes {
    /** Storage precision of every TIME: Flink holds milliseconds of the day, whatever p. */
    static final int TIME_STORAGE_PRECISION = 3;
    /** The field names of a timestamp's struct, in order, as a NamedStruct lists them after the column's. */
    static final List<String> TIMESTAMP_FIELDS = List.of(ArrowTypes.MILLIS, ArrowTypes.NANOS);

    /** One row of the type table in docs/functions.md. */
    public record Support(String flinkType, boolean supported, String note) {}

    private SubstraitTypes() {}

    public static Type of(LogicalType type) {
        Type.Nullability n = type.isNullable() ? Type.Nullability.NULLABILITY_NULLABLE : Type.Nullability.NULLABILITY_REQUIRED;
        switch (type.getTypeRoot()) {
            case BOOLEAN: return Type.newBuilder().setBool(Type.Boolean.newBuilder().setNullability(n)).build();
            case TINYINT: return Type.newBuilder().setI8(Type.I8.newBuilder().setNullability(n)).build();
            case SMALLINT: return Type.newBuilder().setI16(Type.I16.newBuilder().setNullability(n)).build();
            case INTEGER: return Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(n)).build();
            case BIGINT: return Type.newBuilder().setI64(Type.I64.newBuilder().setNullability(n)).build();
            case FLOAT: return Type.newBuilder().setFp32(Type.FP32.newBuilder().setNullability(n)).build();
            case DOUBLE: return Type.newBuilder().setFp64(Type.FP64.newBuilder().setNullability(n)).build();
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                return Type.newBuilder().setDecimal(Type.Decimal.newBuilder()
                        .setPrecision(d.getPrecision()).setScale(d.getScale()).setNullability(n)).build();
            }
            case CHAR:
            case VARCHAR:
                return Type.newBuilder().setString(Type.String.newBuilder().setNullability(n)).build();
            case BINARY:
            case VARBINARY:
                return Type.newBuilder().setBinary(Type.Binary.newBuilder().setNullability(n)).build();
            case DATE: return Type.newBuilder().setDate(Type.Date.newBuilder().setNullability(n)).build();
            case TIME_WITHOUT_TIME_ZONE:
                return Type.newBuilder().setPrecisionTime(Type.PrecisionTime.newBuilder()
                        .setPrecision(TIME_STORAGE_PRECISION).setNullability(n)).build();
            case ARRAY:
                return Type.newBuilder().setList(Type.List.newBuilder()
                        .setType(of(((ArrayType) type).getElementType())).setNullability(n)).build();
            case MAP: {
                MapType map = (MapType) type;
                // Arrow map keys cannot be null: the key is held NOT NULL whatever Flink declares.
                return Type.newBuilder().setMap(Type.Map.newBuilder().setKey(of(map.getKeyType().copy(false)))
                        .setValue(of(map.getValueType())).setNullability(n)).build();
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                Type.Nullability required = Type.Nullability.NULLABILITY_REQUIRED;
                return Type.newBuilder().setStruct(Type.Struct.newBuilder().setNullability(n)
                        .addTypes(Type.newBuilder().setI64(Type.I64.newBuilder().setNullability(required)))
                        .addTypes(Type.newBuilder().setI32(Type.I32.newBuilder().setNullability(required)))).build();
            }
            case ROW: {
                if (looksLikeTimestamp((RowType) type)) {
                    throw new NotReproducible("type " + type.asSummaryString() + " has the sidecar's timestamp layout"
                            + " (struct<millis, nanos>), where a field of a NULL row would not read as NULL");
                }
                Type.Struct.Builder struct = Type.Struct.newBuilder().setNullability(n);
                for (LogicalType field : type.getChildren()) {
                    struct.addTypes(of(field));
                }
                return Type.newBuilder().setStruct(struct).build();
            }
            case MULTISET:
                throw new NotReproducible("type " + type.asSummaryString() + " has no layout in the sidecar (Flink"
                        + " holds a MULTISET as a map of element to count); not supported yet");
            default:
                throw new NotReproducible("type " + type.asSummaryString() + " is not supported by the accelerator yet");
        }
    }

    /**
     * A ROW<millis BIGINT NOT NULL, nanos INT NOT NULL> is held exactly as a timestamp is, and the
     * sidecar tells the two apart by layout alone (accelerator/plans/nested_fields.py), so it stays stock.
     */
    private static boolean looksLikeTimestamp(RowType row) {
        return row.getFieldCount() == 2
                && row.getFieldNames().equals(List.of(ArrowTypes.MILLIS, ArrowTypes.NANOS))
                && row.getTypeAt(0).equals(new BigIntType(false))
                && row.getTypeAt(1).equals(new IntType(false));
    }

    /** Whether two types have the same Substrait (and so Arrow) representation, nullability aside. */
    static boolean sameRepresentation(LogicalType a, LogicalType b) {
        return of(a.copy(true)).equals(of(b.copy(true)));
    }

    /** Every Flink type root with whether a segment may carry it, for docs/functions.md. */
    public static List<Support> table() {
        return List.of(
                new Support("BOOLEAN", true, ""),
                new Support("TINYINT, SMALLINT, INT, BIGINT", true, ""),
                new Support("FLOAT, DOUBLE", true, "comparisons on them are not accelerated (NaN ordering differs)"),
                new Support("DECIMAL(p, s)", true, ""),
                new Support("CHAR(n), VARCHAR(n), STRING", true, "held as Arrow utf8"),
                new Support("BINARY(n), VARBINARY(n), BYTES", true, "held as Arrow binary"),
                new Support("DATE", true, ""),
                new Support("TIMESTAMP(p)", true, "held as Flink's TimestampData pair, struct<millis: int64, nanos: int32>"
                        + " (epoch milliseconds floored, nanoseconds of the millisecond), whatever p: every value exact;"
                        + " a literal is the Flink UDF flink_timestamp(millis, nanos)"),
                new Support("TIMESTAMP_LTZ(p)", true, "as TIMESTAMP(p), the instant in UTC"),
                new Support("TIME(p)", true, "held as milliseconds of the day whatever p, as Flink holds it"),
                new Support("TIMESTAMP(p) WITH TIME ZONE", false, "Flink has no runtime support either"),
                new Support("INTERVAL", false, "not mapped yet"),
                new Support("ROW<...>", true, "held as an Arrow struct; fields read by name (nested field access)"),
                new Support("ARRAY<T>", true, "held as an Arrow list; read, built, counted and cast where the registry says"),
                new Support("MAP<K, V>", true, "held as an Arrow map; a NULL key cannot be held, so a stock"
                        + " operator's maps with a nullable key type do not enter an encode stage"),
                new Support("MULTISET", false, "no layout yet (Flink holds it as a map of element to count)"),
                new Support("RAW, STRUCTURED, DISTINCT, SYMBOL, NULL, DESCRIPTOR, VARIANT", false, "no Arrow form"));
    }

    static boolean isRoot(LogicalType type, LogicalTypeRoot... roots) {
        for (LogicalTypeRoot root : roots) {
            if (type.getTypeRoot() == root) {
                return true;
            }
        }
        return false;
    }
}
