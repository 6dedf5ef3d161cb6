package org.flinkaccelerator.runtime.join;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.flink.runtime.io.disk.iomanager.IOManager;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The accelerated join under a state budget far below its held rows (docs/design/stateful-joins.md,
 * "State memory"): the sidecar spills the rows to Arrow files in the TaskManager's io.tmp.dirs (the
 * I/O manager's directory the operator sends) and reads them back memory-mapped, so the job runs
 * where it used to fail and its output is still stock's {@code StreamingJoinOperator}'s, across
 * checkpoints and a restore from a state written while spilled; the files are named after the stage
 * and subtask.
 */
class AcceleratedJoinSpillTest {
    /**
     * The managed memory the accelerated operator's OPERATOR fraction is set for; its state budget
     * comes out below it (about half), far below the ~3000 distinct rows it holds with their index.
     */
    private static final long BUDGET = 500_000;

    @ParameterizedTest
    @ValueSource(strings = {"hashmap", "rocksdb"})
    void underASmallBudgetTheJoinSpillsAndStillEmitsWhatStockEmits(String backend) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY, backend);
        List<JoinHarnesses.Event> events = JoinHarnesses.stream(planned, 29, 4000, 3000, 400);
        List<Integer> barriers = List.of(1000, 2500, 3500);
        int cut = 3000;
        for (int[] run : new int[][] {{1, 1}, {2, 3}}) {
            List<String> stock = planned.run(planned::newStock, events, barriers, cut, run[0], run[1]);
            assertTrue(stock.size() > 4000, "joined rows " + stock.size());
            assertEquals(stock, planned.run(() -> planned.newAccelerated(500), events, barriers, cut, run[0], run[1],
                    BUDGET), run[0] + " -> " + run[1] + " subtasks");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashmap", "rocksdb"})
    void theSpillFilesAreTheStagesInTheIoManagersDirectory(String backend) throws Exception {
        JoinHarnesses.Planned planned = JoinHarnesses.plan(JoinHarnesses.QUERY, backend);
        try (var harness = planned.harness(planned.newAccelerated(500), 1, 0, BUDGET)) {
            harness.open();
            for (JoinHarnesses.Event event : JoinHarnesses.stream(planned, 31, 4000, 3000, 400)) {
                if (event.row() != null) {
                    StreamRecord<RowData> record = new StreamRecord<>(((BinaryRowData) event.row()).copy());
                    if (event.left()) {
                        harness.processElement1(record);
                    } else {
                        harness.processElement2(record);
                    }
                }
            }
            harness.prepareSnapshotPreBarrier(1);  // sends the last batch
            List<String> files = spillFiles(harness.getEnvironment().getIOManager());
            assertTrue(!files.isEmpty() && files.stream().allMatch(f -> f.startsWith(
                    "join-spill-" + JoinHarnesses.NAME + "-subtask0-pid")), files.toString());
        }
    }

    private static List<String> spillFiles(IOManager io) {
        List<String> out = new ArrayList<>();
        for (File directory : io.getSpillingDirectories()) {
            Arrays.stream(Objects.requireNonNull(directory.listFiles())).map(File::getName)
                    .filter(n -> n.startsWith("join-spill-")).forEach(out::add);
        }
        return out;
    }
}
