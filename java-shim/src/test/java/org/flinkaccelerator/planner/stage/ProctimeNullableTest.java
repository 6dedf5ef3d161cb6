package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampKind;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.junit.jupiter.api.Test;

/** A stock operator's rows hold NULL in an unmaterialized PROCTIME column (compat dedup_keep_first). */
class ProctimeNullableTest {
    @Test
    void onlyProcessingTimeAttributesBecomeNullable() {
        LogicalType proctime = new LocalZonedTimestampType(false, TimestampKind.PROCTIME, 3);
        LogicalType rowtime = new TimestampType(false, TimestampKind.ROWTIME, 3);
        RowType row = RowType.of(new LogicalType[] {new VarCharType(false, 5), rowtime, proctime},
                new String[] {"user", "ts", "pt"});
        RowType taken = StageExporter.proctimeNullable(row);
        assertEquals(row.getFieldNames(), taken.getFieldNames());
        assertFalse(taken.getTypeAt(0).isNullable());
        assertFalse(taken.getTypeAt(1).isNullable());
        assertTrue(taken.getTypeAt(2).isNullable());
        assertTrue(LogicalTypeChecks.isProctimeAttribute(taken.getTypeAt(2)));
    }
}
