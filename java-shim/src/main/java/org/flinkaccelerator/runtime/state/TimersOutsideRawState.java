package org.flinkaccelerator.runtime.state;

import org.apache.flink.runtime.checkpoint.CheckpointType;
import org.apache.flink.runtime.state.AbstractKeyedStateBackend;
import org.apache.flink.runtime.state.KeyedStateBackend;

/**
 * The check of every {@link SidecarStateOperator} that keeps event-time timers on Flink's timer
 * service: its state is in raw keyed state, where a backend with heap timers on RocksDB would write
 * the timers too, so such a backend is refused before anything runs.
 */
public final class TimersOutsideRawState {
    private TimersOutsideRawState() {}

    /**
     * Fails naming what to set when {@code backend} writes timers into raw keyed state.
     *
     * @param operator the operator's name, for the message
     * @param option the option that turns the operator off ("accelerator.window-join.enabled")
     * @param stock what runs instead with the option off ("the stock window join")
     * @param failure the operator's exception for a refused state: (message, cause)
     */
    public static void check(KeyedStateBackend<?> backend, String operator, String option, String stock,
            java.util.function.BiFunction<String, Throwable, RuntimeException> failure) {
        if (backend instanceof AbstractKeyedStateBackend<?> keyed
                && keyed.requiresLegacySynchronousTimerSnapshots(CheckpointType.CHECKPOINT)) {
            throw failure.apply(operator + " cannot run on a keyed state backend that writes timers into raw keyed"
                    + " state (" + keyed.getClass().getSimpleName() + " with heap timers): set"
                    + " state.backend.rocksdb.timer-service.factory: ROCKSDB, or " + option + ": false to run "
                    + stock, null);
        }
    }
}
