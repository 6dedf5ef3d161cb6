package org.flinkaccelerator.runtime.timers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRange;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.hashmap.HashMapStateBackend;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.flinkaccelerator.runtime.windowagg.RocksDbBackend;
import org.flinkaccelerator.sidecar.TestPython;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The order in which Flink's event-time timer service fires timers, recorded from Flink's own timer
 * service and queues on each backend (RocksDB with heap timers fires as the heap backend; restores
 * there write the timers elsewhere and are not modelled) and replayed on the sidecar's model
 * ({@code accelerator.timers}):
 * random scripts of registrations, deletions, watermarks and checkpoint restores (one key to
 * thousands, one key group to 1024, many equal timestamps, firings that register and delete
 * timers, some fired in the same pass), a Nexmark q5-like script of keys times windows, and scripts
 * rescaled from 3 subtasks to 2, 1 and 2. The model must fire every timer Flink fires, in the same
 * order, and hold as many timers.
 */
class TimerOrderTest {

    private static final int[] KEY_GROUPS = {1, 2, 8, 128, 1024};
    private static final int[] KEYS = {1, 7, 60, 1500};
    private static final int[] TIMESTAMP_SPREAD = {2, 20, 1000};

    @ParameterizedTest
    @ValueSource(strings = {"heap", "rocksdb", "rocksdb-heap-timers"})
    void theModelFiresTimersInFlinksOrder(String backend) throws Exception {
        Path log = Path.of("target", "timer-order", backend + ".jsonl");
        Files.createDirectories(log.getParent());
        List<String> scenarios = new ArrayList<>();
        int randomScenarios = switch (backend) {
            case "heap" -> 60;
            case "rocksdb" -> 24;
            default -> 10;
        };
        for (int seed = 0; seed < randomScenarios; seed++) {
            scenarios.add(new Recording(backend, seed).randomScript());
        }
        if (!backend.equals("rocksdb-heap-timers")) {
            for (int seed = 0; seed < 4; seed++) {
                scenarios.add(new Recording(backend, 2000 + seed, new Random(2000 + seed), 128)
                        .rescaleScript(new int[] {3, 2, 1, 2}));
            }
        }
        int q5Keys = backend.equals("rocksdb") ? 600 : 3000;
        scenarios.add(new Recording(backend, 1000, new Random(1000), 128).q5Script(q5Keys, 5));
        Files.write(log, scenarios, StandardCharsets.UTF_8);

        Process replay = new ProcessBuilder(TestPython.path(), "-m", "accelerator.timers.replay",
                log.toAbsolutePath().toString())
                .directory(Path.of("..").toFile()).redirectErrorStream(true).start();
        String output = new String(replay.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(replay.waitFor(5, TimeUnit.MINUTES), "the replay did not end: " + output);
        assertEquals(0, replay.exitValue(), "the model differs from Flink's " + backend + " timers:\n" + output);
        assertTrue(output.contains(scenarios.size() + " scenarios replayed, 0 differ"), output);
    }

    /** One scenario: a script run on Flink's timer service, written as a replay log line. */
    private static final class Recording {
        private final String backend;
        private final long seed;
        private final Random random;
        private final int maxParallelism;
        private final StringBuilder ops = new StringBuilder();
        /** The subtasks' harnesses and operators, and the one the script drives now. */
        private final List<KeyedOneInputStreamOperatorTestHarness<Long, TimerOp, Void>> harnesses = new ArrayList<>();
        private final List<TimerScriptOperator> operators = new ArrayList<>();
        private KeyedOneInputStreamOperatorTestHarness<Long, TimerOp, Void> harness;
        private TimerScriptOperator operator;
        private long checkpoint;

        /** With a random number of key groups (the maximum parallelism). */
        Recording(String backend, long seed) {
            this(backend, seed, new Random(seed));
        }

        private Recording(String backend, long seed, Random random) {
            this(backend, seed, random, KEY_GROUPS[random.nextInt(KEY_GROUPS.length)]);
        }

        Recording(String backend, long seed, Random random, int maxParallelism) {
            this.backend = backend;
            this.seed = seed;
            this.random = random;
            this.maxParallelism = maxParallelism;
        }

        String randomScript() throws Exception {
            int keys = KEYS[random.nextInt(KEYS.length)];
            int spread = TIMESTAMP_SPREAD[random.nextInt(TIMESTAMP_SPREAD.length)];
            int namespaces = 1 + random.nextInt(3);
            int steps = 300 + random.nextInt(1200);
            List<TimerOp> added = new ArrayList<>();
            long watermark = -spread;
            open(null);
            int restores = 0;
            for (int step = 0; step < steps; step++) {
                int what = random.nextInt(100);
                if (what < 70) {
                    long key = random.nextInt(keys) - keys / 3;
                    TimerOp op = TimerOp.of(true, key, operator.keyGroup(key), random.nextInt(namespaces),
                            watermark + random.nextInt(spread + 1) - (random.nextInt(20) == 0 ? 2 : 0));
                    added.add(op);
                    timerOp(op);
                } else if (what < 80 && !added.isEmpty()) {
                    TimerOp old = added.get(random.nextInt(added.size()));
                    timerOp(TimerOp.of(false, old.key(), old.keyGroup(), old.namespace(), old.timestamp()));
                } else if (what < 98) {
                    watermark += random.nextInt(Math.max(1, spread / 3) + 1);
                    watermark(watermark);
                } else if (restores < 3 && restores()) {
                    restores++;
                    restore();
                }
            }
            watermark(watermark + spread + 10);
            return finish("random " + seed + ": " + keys + " keys, timestamps within " + spread + " of the watermark, "
                    + namespaces + " namespaces");
        }

        /**
         * As Nexmark q5's window aggregate: every key registers a timer per window (namespace: the window's
         * end, timestamp: end - 1) as its rows arrive, in an order of keys that changes per window; each
         * watermark passes one window end; a restore in the middle.
         */
        String q5Script(int keys, int windows) throws Exception {
            open(null);
            for (int window = 0; window < windows; window++) {
                long end = 10_000L * (window + 1);
                for (int row = 0; row < keys * 2; row++) {
                    long key = random.nextInt(keys);
                    timerOp(TimerOp.of(true, key, operator.keyGroup(key), end, end - 1));
                }
                if (window == windows / 2 && restores()) {
                    restore();
                }
                if (window > 0) {
                    watermark(end - 10_000L);
                }
            }
            watermark(Long.MAX_VALUE - 10);
            return finish("q5-like " + seed + ": " + keys + " keys x " + windows + " windows");
        }

        /**
         * RocksDB with heap timers fires as the heap backend, but its checkpoints write the timers into raw
         * keyed state in hash order, which the model does not reproduce: no restores there.
         */
        private boolean restores() {
            return !backend.equals("rocksdb-heap-timers");
        }

        private void open(OperatorSubtaskState restored) throws Exception {
            open(restored, 1, 0);
        }

        private void open(OperatorSubtaskState restored, int parallelism, int subtask) throws Exception {
            operator = new TimerScriptOperator(maxParallelism, seed);
            harness = new KeyedOneInputStreamOperatorTestHarness<>(operator, TimerOp::key, Types.LONG, maxParallelism,
                    parallelism, subtask);
            harness.setStateBackend(backend.equals("heap") ? new HashMapStateBackend()
                    : RocksDbBackend.of(backend.equals("rocksdb")));
            if (restored != null) {
                harness.initializeState(restored);
            }
            harness.open();
            harnesses.add(harness);
            operators.add(operator);
        }

        /**
         * Random registrations, deletions and watermarks on each subtask of a parallelism, then every
         * subtask's checkpoint restored at the next parallelism of {@code parallelisms}: ["on", subtask,
         * first key group, key groups, timers] says which subtask's queue the following operations are on,
         * ["rescale", old parallelism, new parallelism, timers] that the subtasks were restored.
         */
        String rescaleScript(int[] parallelisms) throws Exception {
            int keys = 400;
            int spread = 20;
            long watermark = -spread;
            for (int subtask = 0; subtask < parallelisms[0]; subtask++) {
                open(null, parallelisms[0], subtask);
            }
            for (int phase = 0; phase < parallelisms.length; phase++) {
                int parallelism = parallelisms[phase];
                for (int step = 0; step < 400; step++) {
                    if (random.nextInt(100) < 85) {
                        long key = random.nextInt(keys);
                        int keyGroup = operators.get(0).keyGroup(key);
                        on(KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxParallelism, parallelism,
                                keyGroup), parallelism);
                        timerOp(TimerOp.of(random.nextInt(8) > 0, key, keyGroup, random.nextInt(2),
                                watermark + random.nextInt(spread + 1)));
                    } else {
                        watermark += random.nextInt(spread / 3 + 1);
                        for (int subtask = 0; subtask < parallelism; subtask++) {
                            on(subtask, parallelism);
                            watermark(watermark);
                        }
                    }
                }
                if (phase + 1 < parallelisms.length) {
                    rescale(parallelism, parallelisms[phase + 1]);
                }
            }
            int last = parallelisms[parallelisms.length - 1];
            for (int subtask = 0; subtask < last; subtask++) {
                on(subtask, last);
                watermark(watermark + spread + 10);
            }
            return finish("rescaled " + seed + ": " + keys + " keys, parallelism "
                    + Arrays.toString(parallelisms));
        }

        private int current = -1;

        private void on(int subtask, int parallelism) {
            if (subtask == current) {
                return;
            }
            current = subtask;
            harness = harnesses.get(subtask);
            operator = operators.get(subtask);
            KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism,
                    parallelism, subtask);
            ops.append("[\"on\",").append(subtask).append(',').append(range.getStartKeyGroup()).append(',')
                    .append(range.getNumberOfKeyGroups()).append(',').append(operator.timerCount()).append("],");
        }

        private void rescale(int from, int to) throws Exception {
            OperatorSubtaskState[] states = new OperatorSubtaskState[from];
            checkpoint++;
            for (int subtask = 0; subtask < from; subtask++) {
                states[subtask] = harnesses.get(subtask).snapshot(checkpoint, checkpoint);
                harnesses.get(subtask).close();
            }
            OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(states);
            harnesses.clear();
            operators.clear();
            for (int subtask = 0; subtask < to; subtask++) {
                open(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged, maxParallelism, from, to,
                        subtask), to, subtask);
            }
            current = -1;
            ops.append("[\"rescale\",").append(from).append(',').append(to).append(",-1],");
        }

        private void timerOp(TimerOp op) throws Exception {
            harness.processElement(op, 0L);
            // Counting RocksDB's timers reads them all: only now and then there.
            int count = !backend.equals("rocksdb") || random.nextInt(25) == 0 ? operator.timerCount() : -1;
            ops.append(op.json()).append(',').append(count).append("],");
        }

        private void watermark(long watermark) throws Exception {
            harness.processWatermark(new Watermark(watermark));
            ops.append("[\"watermark\",").append(watermark).append(",[");
            List<TimerScriptOperator.Fired> fired = operator.takeFired();
            for (int i = 0; i < fired.size(); i++) {
                TimerScriptOperator.Fired one = fired.get(i);
                ops.append(i == 0 ? "" : ",").append(one.timer().timerJson()).append(",[");
                for (int a = 0; a < one.actions().size(); a++) {
                    ops.append(a == 0 ? "" : ",").append(one.actions().get(a).json()).append(']');
                }
                ops.append("]]");
            }
            ops.append("],").append(operator.timerCount()).append("],");
        }

        private void restore() throws Exception {
            OperatorSubtaskState state = harness.snapshot(++checkpoint, checkpoint);
            harness.close();
            harnesses.clear();
            operators.clear();
            open(state);
            ops.append("[\"restore\",").append(operator.timerCount()).append("],");
        }

        private String finish(String name) throws Exception {
            for (var open : harnesses) {
                open.close();
            }
            if (ops.length() > 0) {
                ops.setLength(ops.length() - 1);
            }
            return "{\"name\":\"" + backend + " " + name + " (" + maxParallelism + " key groups)\",\"backend\":\""
                    + backend + "\",\"keyGroups\":" + maxParallelism + ",\"ops\":[" + ops + "]}";
        }
    }
}
