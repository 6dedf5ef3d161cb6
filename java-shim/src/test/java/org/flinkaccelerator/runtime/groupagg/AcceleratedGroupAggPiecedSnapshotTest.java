package org.flinkaccelerator.runtime.groupagg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.runtime.operators.testutils.MockEnvironmentBuilder;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A group aggregate whose state is many times larger than both a snapshot piece
 * ({@code accelerator.batch.max-bytes}) and the operator's Arrow memory
 * ({@code accelerator.memory.arrow-limit}) checkpoints in pieces, each key group's entries spanning
 * several, and restores 1 -> 1, 2 -> 1 and 1 -> 2 subtasks to the output of stock Flink's
 * {@code GroupAggFunction} on the same rows (the snapshot as one batch would not fit the Arrow
 * memory: Arrow's OutOfMemoryException declines the checkpoint).
 */
class AcceleratedGroupAggPiecedSnapshotTest {
    private static final String QUERY = "SELECT k1, k2, COUNT(*) AS n, SUM(a) AS sa, MAX(c) AS mc FROM bids"
            + " GROUP BY k1, k2";
    /** Few key groups, so each holds more entries than a piece. */
    private static final int MAX_PARALLELISM = 16;
    private static final int KEYS = 5000;
    private static final int KEY_CHARS = 400;
    private static final long PIECE_BYTES = 16 * 1024;
    private static final long ARROW_LIMIT = 256 * 1024;
    /** Managed memory of each subtask, whose share is the state budget: room for all keys on one subtask. */
    private static final long MANAGED_MEMORY = 64L << 20;

    /** Every key once in random order, then every key again: after the cut each row updates a restored key. */
    private static List<GroupAggHarnesses.Event> events(RowType inputType) {
        Random random = new Random(17);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            StringBuilder key = new StringBuilder(i + ":");
            while (key.length() < KEY_CHARS) {
                key.append((char) ('a' + random.nextInt(26)));
            }
            keys.add(key.toString());
        }
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<GroupAggHarnesses.Event> out = new ArrayList<>();
        for (int round = 0; round < 2; round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                order.add(i);
            }
            Collections.shuffle(order, random);
            for (int i : order) {
                GenericRowData row = new GenericRowData(inputType.getFieldCount());
                List<String> names = inputType.getFieldNames();
                for (int f = 0; f < names.size(); f++) {
                    row.setField(f, switch (names.get(f)) {
                        case "k1" -> StringData.fromString(keys.get(i));
                        case "k2" -> i % 7;
                        case "a" -> (long) random.nextInt(1000) - 500;
                        case "c" -> random.nextDouble();
                        default -> null;
                    });
                }
                out.add(new GroupAggHarnesses.Event(binary.toBinaryRow(row).copy(), 1_000L + out.size(), null));
            }
        }
        return out;
    }

    private final List<MockEnvironment> environments = new ArrayList<>();

    @AfterEach
    void closeEnvironments() throws Exception {
        for (MockEnvironment environment : environments) {
            environment.close();
        }
    }

    /** A harness of subtask {@code subtask} with {@link #MANAGED_MEMORY}. */
    private KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(StockKeyedOperator stock,
            OneInputStreamOperator<RowData, RowData> operator, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        MockEnvironment environment = new MockEnvironmentBuilder().setManagedMemorySize(MANAGED_MEMORY)
                .setMaxParallelism(maxParallelism).setParallelism(parallelism).setSubtaskIndex(subtask).build();
        environments.add(environment);
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                new KeyedOneInputStreamOperatorTestHarness<>(operator, stock.keySelector(), stock.keyType(),
                        environment);
        harness.setup(new RowDataSerializer(stock.outputType()));
        return harness;
    }

    private List<String> rescaled(StockKeyedOperator stock, Supplier<OneInputStreamOperator<RowData, RowData>> operators,
            List<GroupAggHarnesses.Event> events, int before, int after) throws Exception {
        return new RescaledRun<GroupAggHarnesses.Event>(
                (operator, maxParallelism, parallelism, subtask) -> harness(stock, operator, maxParallelism,
                        parallelism, subtask),
                event -> stock.keySelector().getKey(event.row()), GroupAggHarnesses::feed,
                harness -> WindowAggHarnesses.output(harness, stock.outputType()), MAX_PARALLELISM)
                .run(operators, events, KEYS, before, after, true);
    }

    @Test
    void aStateLargerThanTheArrowMemoryCheckpointsInPiecesAndRestoresAndRescalesAsStock() throws Exception {
        GroupAggHarnesses.Planned planned = GroupAggHarnesses.plan(QUERY, GroupAggHarnesses.Sink.RETRACT, "");
        GroupAggSpec spec = planned.spec();
        List<GroupAggHarnesses.Event> events = events(planned.stock().inputType());
        for (int[] scale : new int[][] {{1, 1}, {2, 1}, {1, 2}}) {
            List<AcceleratedGroupAggOperator> made = new ArrayList<>();
            Supplier<OneInputStreamOperator<RowData, RowData>> small = () -> {
                AcceleratedGroupAggOperator operator = new AcceleratedGroupAggOperator(new GroupAggSpec(
                        spec.descriptorJson(), spec.inputType(), spec.pythonExecutable(), spec.batchSize(),
                        PIECE_BYTES, spec.maxDelay(), spec.sidecarTimeout(), ARROW_LIMIT));
                made.add(operator);
                return operator;
            };
            String run = scale[0] + " -> " + scale[1] + " subtasks";
            List<String> stock = rescaled(planned.stock(), planned.stock()::newStock, events, scale[0], scale[1]);
            assertEquals(stock, rescaled(planned.stock(), small, events, scale[0], scale[1]), run);

            // A snapshotting subtask holds 2500 keys of 400 characters or more (over 1 MB, four times
            // the Arrow limit; all 5000 keys, over 2 MB, on one subtask); more pieces than key groups
            // means key groups spanned pieces (a piece ends with a whole key group unless one goes on).
            long keyGroups = MAX_PARALLELISM / scale[0];
            for (AcceleratedGroupAggOperator snapshotted : made.subList(0, scale[0])) {
                long pieces = snapshotted.snapshotPieces();
                assertTrue(pieces > 2 * keyGroups, run + ": " + pieces + " pieces of " + keyGroups + " key groups");
            }
            List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
            assertEquals(2 * KEYS + scale[1], afterCut.size(), run + ": a -U and a +U per row after the cut");
            assertTrue(afterCut.stream().noneMatch(l -> l.startsWith("+I")), run + ": every key was restored");
        }
    }
}
