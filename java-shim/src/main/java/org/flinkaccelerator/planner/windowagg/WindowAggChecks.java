package org.flinkaccelerator.planner.windowagg;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.planner.plan.logical.CumulativeWindowSpec;
import org.apache.flink.table.planner.plan.logical.HoppingWindowSpec;
import org.apache.flink.table.planner.plan.logical.SessionWindowSpec;
import org.apache.flink.table.planner.plan.logical.SliceAttachedWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.TumblingWindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowAttachedWindowingStrategy;
import org.apache.flink.table.planner.plan.logical.WindowSpec;
import org.apache.flink.table.planner.plan.logical.WindowingStrategy;
import org.apache.flink.table.planner.functions.aggfunctions.Count1AggFunction;
import org.apache.flink.table.planner.plan.utils.AggregateInfo;
import org.apache.flink.table.planner.plan.utils.AggregateInfoList;
import org.flinkaccelerator.planner.AsyncStateOption;
import org.flinkaccelerator.planner.stage.FallbackReason;
import org.flinkaccelerator.runtime.windowagg.WindowTrigger;

/**
 * The reasons a window aggregate stays stock that lie outside its aggregate functions: the window
 * and how it is assigned, the time zone, and the state setup stock would use. Each is one line in
 * the acceleration report (docs/design/stateful-window-aggregate.md, §2).
 */
final class WindowAggChecks {
    private WindowAggChecks() {}

    static final String WINDOW = "window";
    static final String AGGREGATES = "aggregates";
    static final String STATE = "state";

    static final ConfigOption<String> STATE_BACKEND =
            ConfigOptions.key("state.backend.type").stringType().noDefaultValue();
    static final ConfigOption<String> ROCKSDB_TIMERS =
            ConfigOptions.key("state.backend.rocksdb.timer-service.factory").stringType().noDefaultValue();

    private static final Map<Class<?>, String> OTHER_WINDOWS = Map.of(SessionWindowSpec.class, "SESSION");

    /**
     * Whether the windowing is one the sidecar assigns: a rowtime TUMBLE, HOP or CUMULATE read
     * straight from its table function.
     */
    static List<FallbackReason> windowing(WindowAggNode node) {
        List<FallbackReason> out = new ArrayList<>();
        WindowingStrategy windowing = node.windowing();
        if (windowing instanceof WindowAttachedWindowingStrategy) {
            out.add(new FallbackReason(WINDOW, "the aggregate groups by window_start/window_end computed before it"
                    + " (WindowAttachedWindowingStrategy, e.g. over another window aggregate's windows); only an"
                    + " aggregate over a TUMBLE, HOP or CUMULATE table function is accelerated"));
        } else if (!(windowing instanceof TimeAttributeWindowingStrategy
                || windowing instanceof SliceAttachedWindowingStrategy)) {
            out.add(new FallbackReason(WINDOW, "windowing " + windowing.getClass().getSimpleName()
                    + " is not accelerated"));
        }
        WindowSpec spec = windowing.getWindow();
        if (!sliced(spec)) {
            out.add(new FallbackReason(WINDOW, OTHER_WINDOWS.getOrDefault(spec.getClass(), spec.getClass().getSimpleName())
                    + " windows are not accelerated; only TUMBLE, HOP and CUMULATE are"));
        }
        if (!windowing.isRowtime()) {
            out.add(new FallbackReason(WINDOW, "processing-time windows are not accelerated; only event time"
                    + " (a rowtime attribute with a WATERMARK) is"));
        }
        return out;
    }

    /** Whether stock runs the window with a {@code SliceAssigner} the sidecar reproduces. */
    private static boolean sliced(WindowSpec spec) {
        return spec instanceof TumblingWindowSpec || spec instanceof HoppingWindowSpec
                || spec instanceof CumulativeWindowSpec;
    }

    /** Whether stock's slices, window ends and triggers are ones the sidecar reproduces in this zone. */
    static List<FallbackReason> zone(SlicedWindow window) {
        if (!window.sliceable()) {
            return List.of(new FallbackReason(WINDOW, "the " + window.type().toUpperCase(Locale.ROOT) + " window's size "
                    + window.sizeMs() + " ms is no multiple of its " + sliceName(window) + window.slideMs()
                    + " ms; stock Flink's slicing refuses such a window"));
        }
        if (SlicedWindow.CUMULATE.equals(window.type()) && window.sizeMs() == window.slideMs()) {
            return List.of(new FallbackReason(WINDOW, "the CUMULATE window's step is its max size ("
                    + window.sizeMs() + " ms): stock Flink never clears such a window's one slice"
                    + " (CumulativeSliceAssigner.expiredSlices keeps a first slice), so its state grows with every"
                    + " window, which the accelerated operator (its state in memory under a budget) is not built for;"
                    + " TUMBLE gives the same windows"));
        }
        if (!window.fixedOffset()) {
            return List.of(new FallbackReason(WINDOW, "time zone " + window.zone().getId() + " has no fixed UTC offset"
                    + " (daylight saving or historical changes); only fixed-offset zones are accelerated"));
        }
        WindowTrigger trigger = WindowTrigger.running();
        String slide = sliceName(window) + window.slideMs() + " ms";
        if (!window.epochAligned()) {
            return List.of(new FallbackReason(WINDOW, "the window ends are not aligned to the epoch (offset "
                    + window.offsetMs() + " ms minus zone offset " + window.zoneOffsetMs() + " ms is no multiple of the "
                    + slide + "): " + (trigger.offsetAligned()
                            ? "the accelerated aggregate fires only epoch-aligned windows"
                            : "stock Flink fires such windows late or loses them, which is not reproduced")));
        }
        if (!window.triggeredAtItsEnds(trigger.phase(window.offsetMs()))) {
            return List.of(new FallbackReason(WINDOW, "Flink " + trigger.release() + "'s window trigger lies at the"
                    + " window offset (" + window.offsetMs() + " ms) plus multiples of the " + slide + " in epoch time,"
                    + " not at the window ends (epoch-aligned, zone offset " + window.zoneOffsetMs() + " ms): stock"
                    + " Flink fires such windows late or loses them, which is not reproduced"));
        }
        return List.of();
    }

    private static String sliceName(SlicedWindow window) {
        return switch (window.type()) {
            case SlicedWindow.HOP -> "slide ";
            case SlicedWindow.CUMULATE -> "step ";
            default -> "size ";
        };
    }

    /** Whether stock would keep this aggregate's state in a way the accelerated operator cannot mirror. */
    static List<FallbackReason> state(WindowAggNode node, AggregateInfoList infos, ReadableConfig config) {
        List<FallbackReason> out = new ArrayList<>();
        // Only the single phase builds AsyncStateWindowAggOperator in 2.2.1 (WindowUtil.isAsyncStateEnabled);
        // the global phase's builder never enables async state.
        String asyncState = AsyncStateOption.problem(config, infos, "aggregate");
        if (node.phase() == WindowAggPhase.SINGLE && sliced(node.windowing().getWindow()) && asyncState != null) {
            out.add(new FallbackReason(STATE, asyncState));
        }
        String backend = config.getOptional(STATE_BACKEND).orElse("").toLowerCase(Locale.ROOT);
        String timers = config.getOptional(ROCKSDB_TIMERS).orElse("").toUpperCase(Locale.ROOT);
        if (backend.contains("rocksdb") && timers.equals("HEAP")) {
            out.add(new FallbackReason(STATE, "'" + ROCKSDB_TIMERS.key() + "' is HEAP with the RocksDB state backend:"
                    + " Flink would then write timers into raw keyed state, where the accelerated aggregate keeps its"
                    + " windows"));
        }
        return out;
    }

    /**
     * Whether the sidecar tells empty HOP windows as stock does: by the accumulator field at
     * {@code AggregateInfoList.getIndexOfCountStar()}, which it takes to be the first COUNT(*)'s.
     */
    static List<FallbackReason> emptiness(SlicedWindow window, AggregateInfoList infos) {
        if (!SlicedWindow.HOP.equals(window.type())) {
            return List.of();
        }
        int first = -1;
        int field = 0;
        for (AggregateInfo info : infos.aggInfos()) {
            if (first < 0 && info.function() instanceof Count1AggFunction) {
                first = field;
            }
            field += info.externalAccTypes().length;
        }
        int countStar = infos.getIndexOfCountStar();
        if (countStar < 0 || countStar != first) {
            return List.of(new FallbackReason(AGGREGATES, "the HOP aggregate's COUNT(*) that marks empty windows is"
                    + " accumulator field " + countStar + ", not the first COUNT(*)'s (" + first + "), which is not"
                    + " accelerated"));
        }
        return List.of();
    }
}
