package org.flinkaccelerator.planner.stage;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.planner.plan.nodes.exec.StateMetadata;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.TimestampKind;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.util.TimeUtils;

/**
 * What the exports of the stateful operators keeping whole rows in the sidecar (deduplication,
 * Top-N) share: the field types the sidecar keeps and compares exactly, a descriptor field, and
 * the state retention stock's function gets.
 */
public final class StatefulFields {
    /** The field types the sidecar keeps and compares exactly (no nested or structured types). */
    public static final Set<LogicalTypeRoot> ROW_TYPES = Set.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR,
            LogicalTypeRoot.BOOLEAN, LogicalTypeRoot.BINARY, LogicalTypeRoot.VARBINARY, LogicalTypeRoot.DECIMAL,
            LogicalTypeRoot.TINYINT, LogicalTypeRoot.SMALLINT, LogicalTypeRoot.INTEGER, LogicalTypeRoot.BIGINT,
            LogicalTypeRoot.FLOAT, LogicalTypeRoot.DOUBLE, LogicalTypeRoot.DATE,
            LogicalTypeRoot.TIME_WITHOUT_TIME_ZONE, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE,
            LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE);

    private StatefulFields() {}

    /**
     * The state retention a stock one-input operator's function gets: the node's state metadata (a
     * STATE_TTL hint or the configuration when the node was made), else {@code table.exec.state.ttl},
     * as {@code StateMetadata.getStateTtlForOneInputOperator} reads them.
     */
    public static long stateRetentionMillis(List<StateMetadata> metadata, ReadableConfig config) {
        if (!metadata.isEmpty()) {
            return TimeUtils.parseDuration(metadata.get(0).getStateTtl()).toMillis();
        }
        Duration ttl = config.get(ExecutionConfigOptions.IDLE_STATE_RETENTION);
        return ttl == null ? 0 : ttl.toMillis();
    }

    /** The type without its time attribute: the sidecar holds a rowtime or proctime as the plain timestamp. */
    public static LogicalType plain(LogicalType type) {
        if (type instanceof TimestampType t && t.getKind() != TimestampKind.REGULAR) {
            return new TimestampType(t.isNullable(), t.getPrecision());
        }
        if (type instanceof LocalZonedTimestampType t && t.getKind() != TimestampKind.REGULAR) {
            return new LocalZonedTimestampType(t.isNullable(), t.getPrecision());
        }
        return type;
    }

    /** A descriptor field: its name and its type without time attribute. */
    public static Map<String, Object> field(String name, LogicalType type) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", name);
        out.put("type", plain(type).asSerializableString());
        return out;
    }
}
