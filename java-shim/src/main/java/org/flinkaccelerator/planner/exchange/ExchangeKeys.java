package org.flinkaccelerator.planner.exchange;

import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The key types whose Flink key rows the sidecar builds for a batch exchange
 * ({@code accelerator/exchange/key_rows.py}, checked against Flink's key selector by
 * {@code FlinkKeyGroupsTest}) and reads back ({@code key_columns}, for an encoding fused into a
 * group aggregate); a key of any other type keeps the per-row exchange, or the encode stage.
 */
public final class ExchangeKeys {
    private ExchangeKeys() {}

    /** Why a key of {@code type} keeps the per-row exchange, or null when the sidecar builds its rows. */
    public static String refusal(String name, LogicalType type) {
        switch (type.getTypeRoot()) {
            case BOOLEAN:
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT:
            case DATE:
            case CHAR:
            case VARCHAR:
                return null;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) type).getPrecision() <= 3 ? null : precision(name, type);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) type).getPrecision() <= 3 ? null : precision(name, type);
            default:
                return "key " + name + " of type " + type.asSummaryString() + ": the sidecar builds key rows of"
                        + " BOOLEAN, TINYINT to BIGINT, DATE, CHAR, VARCHAR and TIMESTAMP(0-3) keys only";
        }
    }

    /**
     * Why rows of {@code rows} get no binary rows in the sidecar (a regular join's {@code $order}:
     * each field laid out as a key field is), or null.
     */
    public static String rowRefusal(RowType rows) {
        for (int i = 0; i < rows.getFieldCount(); i++) {
            String refused = refusal(rows.getFieldNames().get(i), rows.getTypeAt(i));
            if (refused != null) {
                return "its rows' binary form: " + refused.replaceFirst("^key ", "field ");
            }
        }
        return null;
    }

    private static String precision(String name, LogicalType type) {
        return "key " + name + " of type " + type.asSummaryString() + ": a timestamp key above precision 3 is not"
                + " compact in Flink's key rows";
    }
}
