package org.flinkaccelerator.planner.substrait;

import io.substrait.proto.Type;
import java.util.List;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/**
 * Flink logical types as Substrait types, in the Arrow layout the sidecar holds them in
 * (accelerator/formats/types.py): timestamps always with nanosecond storage, whatever the
 * declared precision, because Flink keeps every fractional digit it reads.
 */
public final class SubstraitTypes {
    /** Storage precision of every timestamp in the sidecar's batches. */
    static final int TIMESTAMP_STORAGE_PRECISION = 9;

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
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return Type.newBuilder().setPrecisionTimestamp(Type.PrecisionTimestamp.newBuilder()
                        .setPrecision(TIMESTAMP_STORAGE_PRECISION).setNullability(n)).build();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return Type.newBuilder().setPrecisionTimestampTz(Type.PrecisionTimestampTZ.newBuilder()
                        .setPrecision(TIMESTAMP_STORAGE_PRECISION).setNullability(n)).build();
            case ROW: {
                Type.Struct.Builder struct = Type.Struct.newBuilder().setNullability(n);
                for (LogicalType field : type.getChildren()) {
                    struct.addTypes(of(field));
                }
                return Type.newBuilder().setStruct(struct).build();
            }
            default:
                throw new NotReproducible("type " + type.asSummaryString() + " is not supported by the accelerator yet");
        }
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
                new Support("TIMESTAMP(p)", true, "held with nanosecond storage whatever p, as Flink keeps every digit it reads"),
                new Support("TIMESTAMP_LTZ(p)", true, "held with nanosecond storage, UTC"),
                new Support("TIME(p)", false, "not mapped yet"),
                new Support("TIMESTAMP(p) WITH TIME ZONE", false, "Flink has no runtime support either"),
                new Support("INTERVAL", false, "not mapped yet"),
                new Support("ROW<...>", true, "held as an Arrow struct; fields read by name (nested field access)"),
                new Support("ARRAY, MAP, MULTISET", false, "not mapped yet"),
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
