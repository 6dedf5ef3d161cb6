package org.flinkaccelerator.planner.substrait;

import com.google.protobuf.ByteString;
import io.substrait.proto.Expression;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDateTime;
import java.util.List;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.util.TimestampString;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.calcite.FlinkTypeFactory;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;

/** Flink literals as Substrait literals, for the types whose values carry over exactly. */
final class Literals {
    /**
     * The sidecar UDF making a TIMESTAMP or TIMESTAMP_LTZ from its (millis i64, nanos i32) parts;
     * NULL when a part is NULL.
     */
    static final String TIMESTAMP = "flink_timestamp";

    private Literals() {}

    static Expression of(RexLiteral literal, ExpressionConverter c) {
        LogicalType type = FlinkTypeFactory.toLogicalType(literal.getType());
        Expression.Literal.Builder out = Expression.Literal.newBuilder().setNullable(type.isNullable());
        if (literal.isNull() && TemporalFunctions.isTimestamp(type)) {
            // DataFusion names a null struct literal's fields c0, c1, which no timestamp column matches.
            return c.call(Urns.FLINK, TIMESTAMP, type, List.of(
                    nullOf(new BigIntType()), nullOf(new IntType())));
        }
        if (literal.isNull()) {
            out.setNull(SubstraitTypes.of(type));
            return Expression.newBuilder().setLiteral(out).build();
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN: out.setBoolean(literal.getValueAs(Boolean.class)); break;
            case TINYINT: out.setI8(literal.getValueAs(Long.class).intValue()); break;
            case SMALLINT: out.setI16(literal.getValueAs(Long.class).intValue()); break;
            case INTEGER: out.setI32(literal.getValueAs(Long.class).intValue()); break;
            case BIGINT: out.setI64(literal.getValueAs(Long.class)); break;
            case FLOAT: out.setFp32(literal.getValueAs(Double.class).floatValue()); break;
            case DOUBLE: out.setFp64(literal.getValueAs(Double.class)); break;
            case DECIMAL: out.setDecimal(decimal(literal.getValueAs(BigDecimal.class), (DecimalType) type)); break;
            case CHAR:
            case VARCHAR:
                out.setString(literal.getValueAs(String.class));
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(literal.getValueAs(TimestampString.class), type, c);
            default:
                throw new NotReproducible("literal " + literal + " of type " + type.asSummaryString()
                        + " is not supported by the accelerator yet");
        }
        return Expression.newBuilder().setLiteral(out).build();
    }

    /**
     * A TIMESTAMP or TIMESTAMP_LTZ literal (Calcite holds both as the wall-clock text, the LTZ one
     * in UTC) as {@code flink_timestamp(millis, nanos)}: the TimestampData Flink's generated code
     * builds from it. Substrait's timestamp literals are one i64 count since 1970, which
     * is not the sidecar's layout.
     */
    private static Expression timestamp(TimestampString value, LogicalType type, ExpressionConverter c) {
        TimestampData data = TimestampData.fromLocalDateTime(
                LocalDateTime.parse(value.toString().replace(' ', 'T')));
        return c.call(Urns.FLINK, TIMESTAMP, type,
                List.of(int64(data.getMillisecond()), int32(data.getNanoOfMillisecond())));
    }

    private static Expression nullOf(LogicalType type) {
        return Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setNullable(true)
                .setNull(SubstraitTypes.of(type))).build();
    }

    static Expression string(String value) {
        return Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setString(value)).build();
    }

    static Expression int32(int value) {
        return Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setI32(value)).build();
    }

    static Expression int64(long value) {
        return Expression.newBuilder().setLiteral(Expression.Literal.newBuilder().setI64(value)).build();
    }

    /** Substrait's decimal literal: the unscaled value as 16 bytes, little-endian two's complement. */
    private static Expression.Literal.Decimal decimal(BigDecimal value, DecimalType type) {
        BigInteger unscaled = value.setScale(type.getScale()).unscaledValue();
        byte[] bigEndian = unscaled.toByteArray();
        byte[] littleEndian = new byte[16];
        byte fill = (byte) (unscaled.signum() < 0 ? 0xFF : 0);
        for (int i = 0; i < 16; i++) {
            littleEndian[i] = i < bigEndian.length ? bigEndian[bigEndian.length - 1 - i] : fill;
        }
        return Expression.Literal.Decimal.newBuilder()
                .setValue(ByteString.copyFrom(littleEndian))
                .setPrecision(type.getPrecision())
                .setScale(type.getScale())
                .build();
    }
}
