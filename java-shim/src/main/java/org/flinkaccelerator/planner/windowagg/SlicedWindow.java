package org.flinkaccelerator.planner.windowagg;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.logical.CumulativeWindowSpec;
import org.apache.flink.table.planner.plan.logical.HoppingWindowSpec;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowSpec;
import org.apache.flink.table.planner.utils.TableConfigUtils;
import org.apache.flink.table.runtime.util.TimeWindowUtil;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * A TUMBLE, HOP or CUMULATE window as stock slices it ({@code SliceAssigners}): size (a CUMULATE
 * window's max size), slide (the slice length: a CUMULATE window's step; the size for TUMBLE),
 * offset, and the zone stock shifts rowtimes into
 * ({@code TimeWindowUtil.getShiftTimeZone}: UTC for a TIMESTAMP rowtime, {@code table.local-time-zone}
 * for TIMESTAMP_LTZ), the same call the exec node makes. {@code zoneOffsetMs} is that zone's
 * offset, meaningful only when {@link #fixedOffset()}.
 */
public record SlicedWindow(String type, long sizeMs, long slideMs, long offsetMs, LogicalType timeType, ZoneId zone,
        long zoneOffsetMs) {
    static final String TUMBLE = "tumble";
    static final String HOP = "hop";
    static final String CUMULATE = "cumulate";

    /** The window of a TUMBLE, HOP or CUMULATE spec, or null for another window. */
    static SlicedWindow of(WindowSpec spec, LogicalType timeType, ReadableConfig config) {
        ZoneId zone = TimeWindowUtil.getShiftTimeZone(timeType, TableConfigUtils.getLocalTimeZone(config));
        long zoneOffsetMs = zone.getRules().getOffset(Instant.EPOCH).getTotalSeconds() * 1000L;
        if (spec instanceof TumblingWindowSpec tumble) {
            long size = tumble.getSize().toMillis();
            return new SlicedWindow(TUMBLE, size, size, millis(tumble.getOffset()), timeType, zone, zoneOffsetMs);
        }
        if (spec instanceof HoppingWindowSpec hop) {
            return new SlicedWindow(HOP, hop.getSize().toMillis(), hop.getSlide().toMillis(), millis(hop.getOffset()),
                    timeType, zone, zoneOffsetMs);
        }
        if (spec instanceof CumulativeWindowSpec cumulate) {
            return new SlicedWindow(CUMULATE, cumulate.getMaxSize().toMillis(), cumulate.getStep().toMillis(),
                    millis(cumulate.getOffset()), timeType, zone, zoneOffsetMs);
        }
        return null;
    }

    private static long millis(Duration offset) {
        return offset == null ? 0L : offset.toMillis();
    }

    /** False for zones with daylight saving or historical changes, whose shift stock computes per instant. */
    public boolean fixedOffset() {
        return zone.getRules().isFixedOffset();
    }

    /**
     * True when the slide divides the size: stock's {@code HoppingSliceAssigner} and
     * {@code CumulativeSliceAssigner} refuse other HOP and CUMULATE windows.
     */
    public boolean sliceable() {
        return slideMs > 0 && sizeMs % slideMs == 0;
    }

    /**
     * True when every slice end is a multiple of the slide in epoch time, the only windows the
     * sidecar takes (accelerator/windowagg/spec.py): it fires each window at its own end, as stock
     * does when its trigger points lie there too ({@link #triggeredAtItsEnds}).
     */
    public boolean epochAligned() {
        return Math.floorMod(offsetMs - zoneOffsetMs, slideMs) == 0;
    }

    /**
     * True when stock's trigger points, at {@code triggerPhase} ms plus multiples of the slide in epoch
     * time ({@code WindowTrigger.phase}), are the slice ends: only then does stock fire each window at
     * its own end rather than late.
     */
    public boolean triggeredAtItsEnds(long triggerPhase) {
        return Math.floorMod(offsetMs - zoneOffsetMs - triggerPhase, slideMs) == 0;
    }

    Map<String, Object> tree() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("type", type);
        out.put("size_ms", sizeMs);
        if (HOP.equals(type)) {
            out.put("slide_ms", slideMs);
        }
        if (CUMULATE.equals(type)) {
            out.put("step_ms", slideMs);
        }
        out.put("offset_ms", offsetMs);
        out.put("time_type", timeType.asSerializableString());
        out.put("zone", zone.getId());
        out.put("zone_offset_ms", zoneOffsetMs);
        return out;
    }
}
