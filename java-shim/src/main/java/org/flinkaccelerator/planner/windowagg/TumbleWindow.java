package org.flinkaccelerator.planner.windowagg;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A TUMBLE window as stock assigns it: size and offset, and the zone stock shifts rowtimes into
 * ({@code TimeWindowUtil.getShiftTimeZone}: UTC for a TIMESTAMP rowtime, {@code table.local-time-zone}
 * for TIMESTAMP_LTZ), the same call the exec node makes. {@code zoneOffsetMs} is that zone's
 * offset, meaningful only when {@link #fixedOffset()}.
 */
public record TumbleWindow(long sizeMs, long offsetMs, LogicalType timeType, ZoneId zone, long zoneOffsetMs) {

    static TumbleWindow of(TumblingWindowSpec spec, LogicalType timeType, ReadableConfig config) {
        ZoneId zone = TimeWindowUtil.getShiftTimeZone(timeType, TableConfigUtils.getLocalTimeZone(config));
        Duration offset = spec.getOffset() == null ? Duration.ZERO : spec.getOffset();
        long zoneOffsetMs = zone.getRules().getOffset(Instant.EPOCH).getTotalSeconds() * 1000L;
        return new TumbleWindow(spec.getSize().toMillis(), offset.toMillis(), timeType, zone, zoneOffsetMs);
    }

    /** False for zones with daylight saving or historical changes, whose shift stock computes per instant. */
    public boolean fixedOffset() {
        return zone.getRules().isFixedOffset();
    }

    /**
     * True when every window end is a multiple of the size in epoch time: stock's trigger
     * ({@code getNextTriggerWatermark}) is epoch-aligned and ignores the offset, so only then does
     * it fire each window at its own end.
     */
    public boolean epochAligned() {
        return Math.floorMod(offsetMs - zoneOffsetMs, sizeMs) == 0;
    }

    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", "tumble");
        out.put("size_ms", sizeMs);
        out.put("offset_ms", offsetMs);
        out.put("time_type", timeType.asSerializableString());
        out.put("zone", zone.getId());
        out.put("zone_offset_ms", zoneOffsetMs);
        return out;
    }
}
