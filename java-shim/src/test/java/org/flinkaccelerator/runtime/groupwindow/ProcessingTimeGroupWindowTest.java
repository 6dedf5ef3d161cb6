package org.flinkaccelerator.runtime.groupwindow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.runtime.state.BarrierPoints;
import org.flinkaccelerator.runtime.state.RescaledRun;
import org.flinkaccelerator.runtime.state.StockKeyedOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggHarnesses;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Processing-time TUMBLE and HOP group windows: stock Flink's {@code AggregateWindowOperator} and the
 * accelerated one, planned from the same SQL, in Flink's keyed operator harness with the processing
 * time set by the harness. Rows arrive at times that stand still or advance a little, the clock
 * jumps over several windows now and then (Flink then fires many windows in one pass, in its timer
 * heap's order), and watermarks pass through. The output sequences must be equal for batches of one
 * row, of a few and of thousands (rows wait in the batch past window ends), with checkpoint
 * barriers at random points, and across a restore on 1 -> 1, 2 -> 1 and 2 -> 3 subtasks.
 */
class ProcessingTimeGroupWindowTest {
    static final String TUMBLE = "TUMBLE(pt, INTERVAL '1' SECOND)";
    static final String HOP = "HOP(pt, INTERVAL '0.2' SECOND, INTERVAL '0.5' SECOND)";
    private static final int MAX_PARALLELISM = StockKeyedOperator.MAX_PARALLELISM;

    /** The aggregates of {@link GroupWindowHarnesses#query}, with the window's start and end. */
    static String query(String window) {
        String function = window.substring(0, window.indexOf('('));
        String args = window.substring(window.indexOf('(') + 1, window.length() - 1);
        return "SELECT k1, k2, COUNT(*), COUNT(b), SUM(a), SUM(b), SUM(c), MIN(c), MAX(c), MAX(b), AVG(a),"
                + " COUNT(*) FILTER (WHERE b > 0), COUNT(c), AVG(c), " + function + "_START(" + args + "), "
                + function + "_END(" + args + ") FROM bids GROUP BY k1, k2, " + window;
    }

    /** A row arriving at processing time {@code time}; without a row the clock moves to {@code time}, or a watermark. */
    record Event(RowData row, long time, Long watermark) {}

    /**
     * Rows over a few keys, each at a processing time that stands still (a third of the rows) or
     * advances by up to 40 ms; the clock moves on its own now and then, by a little or over several
     * windows; watermarks now and then; at the end the clock passes every window.
     */
    static List<Event> stream(RowType inputType, long seed, int rows) {
        Random random = new Random(seed);
        RowDataSerializer binary = new RowDataSerializer(inputType);
        List<Event> out = new ArrayList<>();
        long time = GroupWindowHarnesses.START + random.nextInt(1000);
        for (int i = 0; i < rows; i++) {
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                row.setField(f, WindowAggHarnesses.value(inputType.getTypeAt(f), inputType.getFieldNames().get(f),
                        random));
            }
            time += random.nextInt(3) == 0 ? 0 : random.nextInt(41);
            out.add(new Event(binary.toBinaryRow(row).copy(), time, null));
            int step = random.nextInt(40);
            if (step == 0) {
                time += 1_000 + random.nextInt(3_000);
                out.add(new Event(null, time, null));
            } else if (step < 4) {
                time += random.nextInt(300);
                out.add(new Event(null, time, null));
            } else if (step == 4) {
                out.add(new Event(null, time, time - random.nextInt(5_000)));
            }
        }
        out.add(new Event(null, time + 10_000, null));
        return out;
    }

    /** Moves the harness's clock to the event's time (if it is behind), then feeds the row or the watermark. */
    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (harness.getProcessingTime() < event.time()) {
            harness.setProcessingTime(event.time());
        }
        if (event.row() != null) {
            harness.processElement(new StreamRecord<>(((BinaryRowData) event.row()).copy()));
        } else if (event.watermark() != null) {
            harness.processWatermark(new Watermark(event.watermark()));
        }
    }

    private static List<String> run(GroupWindowHarnesses.Planned planned,
            OneInputStreamOperator<RowData, RowData> operator, List<Event> events, List<Integer> barriers)
            throws Exception {
        return planned.stock().outputOf(operator, events, ProcessingTimeGroupWindowTest::feed, barriers);
    }

    @ParameterizedTest
    @ValueSource(strings = {TUMBLE, HOP})
    void sameOutputAsStockForBatchesOfEverySize(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(query(window));
        assertTrue(planned.spec().processingTime(), "the spec says processing time");
        List<Event> events = stream(planned.stock().inputType(), 3, 2_000);
        List<String> stock = run(planned, planned.stock().newStock(), events, List.of());
        long emitted = stock.stream().filter(l -> l.startsWith("+I")).count();
        assertTrue(emitted > 300, window + ": " + emitted + " windows emitted");
        assertTrue(stock.stream().anyMatch(l -> l.startsWith("watermark")), window + ": watermarks pass through");
        for (int batch : new int[] {1, 7, 10_000}) {
            assertEquals(stock, run(planned, planned.newAccelerated(batch), events, List.of()),
                    window + ", batch " + batch);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {TUMBLE, HOP})
    void barriersAtRandomPointsGiveStockOutput(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(query(window));
        List<Event> events = stream(planned.stock().inputType(), 5, 1_000);
        List<Integer> barriers = BarrierPoints.random(events.size());
        assertEquals(run(planned, planned.stock().newStock(), events, barriers),
                run(planned, planned.newAccelerated(), events, barriers), window);
    }

    private static List<String> rescaled(GroupWindowHarnesses.Planned planned,
            Supplier<OneInputStreamOperator<RowData, RowData>> operators, List<Event> events, int cut, int before,
            int after) throws Exception {
        return new RescaledRun<Event>(planned.stock()::harness,
                event -> event.row() == null ? null : planned.stock().keySelector().getKey(event.row()),
                ProcessingTimeGroupWindowTest::feed, harness -> WindowAggHarnesses.output(harness,
                        planned.stock().outputType()), MAX_PARALLELISM).run(operators, events, cut, before, after,
                true);
    }

    @ParameterizedTest
    @ValueSource(strings = {TUMBLE, HOP})
    void restoreAndRescaleGiveStockOutput(String window) throws Exception {
        GroupWindowHarnesses.Planned planned = GroupWindowHarnesses.plan(query(window));
        for (int[] scale : new int[][] {{1, 1}, {2, 1}, {2, 3}}) {
            List<Event> events = stream(planned.stock().inputType(), 11 + scale[0] * 10L + scale[1], 800);
            int cut = events.size() / 2;
            List<String> stock = rescaled(planned, planned.stock()::newStock, events, cut, scale[0], scale[1]);
            assertEquals(stock, rescaled(planned, planned::newAccelerated, events, cut, scale[0], scale[1]),
                    window + ", " + scale[0] + " -> " + scale[1] + " subtasks");
            List<String> afterCut = stock.subList(stock.lastIndexOf("subtask 0 of " + scale[1]), stock.size());
            assertTrue(afterCut.stream().filter(l -> l.startsWith("+I")).count() > 20, "after the cut: "
                    + afterCut.size());
        }
    }
}
