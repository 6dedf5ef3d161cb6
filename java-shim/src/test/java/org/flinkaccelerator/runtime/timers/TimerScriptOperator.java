package org.flinkaccelerator.runtime.timers;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.InternalTimer;
import org.apache.flink.streaming.api.operators.InternalTimerServiceImpl;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.Triggerable;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Drives Flink's own event-time timer service with a script of timer registrations and deletions
 * (one {@link TimerOp} per record, under the record's key) and records the order it fires them in,
 * with what each firing did: a fired timer registers or deletes another timer of its key when a hash
 * of the timer says so, some at or before the watermark being passed, so they fire in the same pass,
 * some at the fired timer's own timestamp, among the timers already waiting there.
 */
final class TimerScriptOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<TimerOp, Void>, Triggerable<Long, Long> {

    private final int maxParallelism;
    private final long reactionSeed;
    private transient InternalTimerServiceImpl<Long, Long> timers;
    /** The timers fired since the last {@link #takeFired()}, in firing order, with what each firing did. */
    private transient List<Fired> fired;

    /** One fired timer and the timers its firing registered or deleted. */
    record Fired(TimerOp timer, List<TimerOp> actions) {}

    TimerScriptOperator(int maxParallelism, long reactionSeed) {
        this.maxParallelism = maxParallelism;
        this.reactionSeed = reactionSeed;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        fired = new ArrayList<>();
        timers = (InternalTimerServiceImpl<Long, Long>) getInternalTimerService("timers", LongSerializer.INSTANCE,
                this);
    }

    @Override
    public void processElement(StreamRecord<TimerOp> element) {
        apply(element.getValue());
    }

    private void apply(TimerOp op) {
        if (op.add()) {
            timers.registerEventTimeTimer(op.namespace(), op.timestamp());
        } else {
            timers.deleteEventTimeTimer(op.namespace(), op.timestamp());
        }
    }

    @Override
    public void onEventTime(InternalTimer<Long, Long> timer) {
        long key = timer.getKey();
        long hash = mix(reactionSeed ^ mix(key * 31 + timer.getNamespace()) ^ timer.getTimestamp());
        List<TimerOp> actions = new ArrayList<>();
        int what = (int) Math.floorMod(hash, 10);
        // Later than the fired timer, or as late in a higher namespace: every chain of firings ends.
        long later = Math.floorMod(hash >>> 16, 3);
        long namespace = later == 0 && timer.getNamespace() < 4 ? timer.getNamespace() + 1
                : Math.floorMod(hash >>> 8, 3);
        long timestamp = timer.getTimestamp() + (namespace > timer.getNamespace() ? later : Math.max(1, later));
        if (what < 3) {
            actions.add(TimerOp.of(true, key, keyGroup(key), namespace, timestamp));
        } else if (what == 3) {
            actions.add(TimerOp.of(false, key, keyGroup(key), namespace, timestamp + 2));
        } else if (what == 4) {
            // Registers a timer and deletes it again within one firing.
            actions.add(TimerOp.of(true, key, keyGroup(key), namespace, timestamp));
            actions.add(TimerOp.of(false, key, keyGroup(key), namespace, timestamp));
        }
        actions.forEach(this::apply);
        fired.add(new Fired(TimerOp.of(true, key, keyGroup(key), timer.getNamespace(), timer.getTimestamp()),
                actions));
    }

    @Override
    public void onProcessingTime(InternalTimer<Long, Long> timer) {
        throw new IllegalStateException("no processing-time timer is registered, yet one fired: " + timer);
    }

    int keyGroup(long key) {
        return KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism);
    }

    /** How many event-time timers Flink's queue holds. */
    int timerCount() {
        return timers.numEventTimeTimers();
    }

    List<Fired> takeFired() {
        List<Fired> taken = fired;
        fired = new ArrayList<>();
        return taken;
    }

    /** A 64-bit finalizer (murmur3's), so reactions look random but are the same on every run. */
    static long mix(long value) {
        value ^= value >>> 33;
        value *= 0xff51afd7ed558ccdL;
        value ^= value >>> 33;
        value *= 0xc4ceb9fe1a85ec53L;
        value ^= value >>> 33;
        return value;
    }
}
