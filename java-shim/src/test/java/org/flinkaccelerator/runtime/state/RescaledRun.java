package org.flinkaccelerator.runtime.state;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.RowData;

/**
 * A keyed operator run in Flink's test harnesses across a checkpoint, as Flink rescales keyed
 * state: the events up to a cut on {@code before} subtasks, a snapshot of every subtask, then the
 * rest on {@code after} subtasks restored from the repartitioned snapshot. A row goes to the
 * subtask owning its key's key group, a watermark (no key) to all.
 *
 * @param harnesses a harness of one subtask for an operator
 * @param keyOf an event's key, or null for a watermark, which every subtask gets
 * @param feed how an event enters a harness
 * @param output a harness's output, one line per element
 * @param <E> the events
 */
public record RescaledRun<E>(Harnesses harnesses, KeyOf<E> keyOf, Feed<E> feed,
        Function<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>, List<String>> output,
        int maxParallelism) {

    /** Sets up a harness for {@code operator} as subtask {@code subtask} of {@code parallelism}. */
    public interface Harnesses {
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
                OneInputStreamOperator<RowData, RowData> operator, int maxParallelism, int parallelism, int subtask)
                throws Exception;
    }

    public interface KeyOf<E> {
        RowData key(E event) throws Exception;
    }

    public interface Feed<E> {
        void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, E event)
                throws Exception;
    }

    /**
     * Each subtask's output, before the cut then after it; {@code endInput} ends the input of the
     * subtasks after the cut before their output is read.
     */
    public List<String> run(Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<E> events, int cut,
            int before, int after, boolean endInput) throws Exception {
        List<String> out = new ArrayList<>();
        List<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>> first = new ArrayList<>();
        OperatorSubtaskState[] states = new OperatorSubtaskState[before];
        try {
            for (int i = 0; i < before; i++) {
                first.add(harnesses.harness(operators.get(), maxParallelism, before, i));
                first.get(i).open();
            }
            route(first, events.subList(0, cut));
            for (int i = 0; i < before; i++) {
                first.get(i).prepareSnapshotPreBarrier(1);
                states[i] = first.get(i).snapshot(1, 1);
                out.add("subtask " + i + " of " + before);
                out.addAll(output.apply(first.get(i)));
            }
        } finally {
            for (var harness : first) {
                harness.close();
            }
        }
        OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(states);
        List<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>> second = new ArrayList<>();
        try {
            for (int i = 0; i < after; i++) {
                second.add(harnesses.harness(operators.get(), maxParallelism, after, i));
                second.get(i).initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                        maxParallelism, before, after, i));
                second.get(i).open();
            }
            route(second, events.subList(cut, events.size()));
            for (int i = 0; i < after; i++) {
                if (endInput) {
                    second.get(i).endInput();
                }
                out.add("subtask " + i + " of " + after);
                out.addAll(output.apply(second.get(i)));
            }
        } finally {
            for (var harness : second) {
                harness.close();
            }
        }
        return out;
    }

    private void route(List<KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData>> subtasks,
            List<E> events) throws Exception {
        for (E event : events) {
            RowData key = keyOf.key(event);
            if (key == null) {
                for (var harness : subtasks) {
                    feed.feed(harness, event);
                }
            } else {
                feed.feed(subtasks.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(key, maxParallelism,
                        subtasks.size())), event);
            }
        }
    }
}
