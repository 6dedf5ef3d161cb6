package org.flinkaccelerator.runtime.windowagg;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.ZoneId;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.runtime.util.TimeWindowUtil;

/**
 * The progress at which stock's sliced window aggregate next tries to fire windows, computed by the
 * running Flink release's own {@link TimeWindowUtil} method, which differs per release: 1.20's and 2.2's slice
 * processors call {@code getNextTriggerWatermark(progress, interval, zone, dst)}, whose trigger points
 * are aligned to the epoch (the window offset is ignored); 2.3's calls
 * {@code getNextTriggerWatermarkWithOffset(progress, interval, offset, zone, dst)}, aligned to the
 * window's offset. Each release has only its own method, so the one of the running release is chosen
 * once, from its version, and looked up by name.
 */
public final class WindowTrigger {
    private static final MethodType WITH_OFFSET =
            MethodType.methodType(long.class, long.class, long.class, long.class, ZoneId.class, boolean.class);
    private static final WindowTrigger RUNNING = forRelease(EnvironmentInformation.getVersion(), TimeWindowUtil.class);

    private final String release;
    private final boolean offsetAligned;
    /** (progress, interval, offset, zone, daylightSaving) -> next trigger progress, on every release. */
    private final MethodHandle next;

    private WindowTrigger(String release, boolean offsetAligned, MethodHandle next) {
        this.release = release;
        this.offsetAligned = offsetAligned;
        this.next = next;
    }

    /** The trigger of the Flink release this JVM runs. */
    public static WindowTrigger running() {
        return RUNNING;
    }

    /**
     * The trigger of Flink {@code release}, looked up in {@code timeWindowUtil} (that release's
     * {@link TimeWindowUtil}): the epoch-aligned one on 1.20 and 2.2, the offset-aligned one from 2.3 on.
     */
    static WindowTrigger forRelease(String release, Class<?> timeWindowUtil) {
        boolean offsetAligned = !release.startsWith("2.2.") && !release.startsWith("1.20.");
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        String name = offsetAligned ? "getNextTriggerWatermarkWithOffset" : "getNextTriggerWatermark";
        try {
            MethodHandle next = offsetAligned
                    ? lookup.findStatic(timeWindowUtil, name, WITH_OFFSET)
                    : MethodHandles.dropArguments(
                            lookup.findStatic(timeWindowUtil, name, WITH_OFFSET.dropParameterTypes(2, 3)), 2, long.class);
            return new WindowTrigger(release, offsetAligned, next);
        } catch (NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("Flink " + release + "'s " + timeWindowUtil.getName() + " has no public " + name
                    + ", the window trigger stock's window aggregate of that release calls; the accelerated window"
                    + " aggregate cannot run on it: run a Flink release flink-accelerator supports", e);
        }
    }

    /** The release this trigger is the one of. */
    public String release() {
        return release;
    }

    /** True when the trigger points follow the window's offset (2.3 on); false when they are epoch-aligned (1.20, 2.2). */
    public boolean offsetAligned() {
        return offsetAligned;
    }

    /**
     * Stock's next trigger progress after {@code progress} for slices of {@code interval} ms whose
     * window offset is {@code offset} ms, shifted into {@code zone}.
     */
    public long next(long progress, long interval, long offset, ZoneId zone, boolean daylightSaving) {
        try {
            return (long) next.invokeExact(progress, interval, offset, zone, daylightSaving);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Flink " + release + "'s window trigger failed at progress " + progress, e);
        }
    }

    /**
     * The trigger points of a window with offset {@code windowOffset} lie at {@code phase + k * interval - 1}
     * in epoch time (fixed-offset zones): the phase is 0 on 2.2, the window's offset on 2.3.
     */
    public long phase(long windowOffset) {
        return offsetAligned ? windowOffset : 0L;
    }
}
