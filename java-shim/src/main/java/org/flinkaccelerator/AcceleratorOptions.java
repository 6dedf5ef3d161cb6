package org.flinkaccelerator;

import static org.apache.flink.configuration.ConfigOptions.key;

import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * Every Flink configuration option the accelerator reads, in one place. They are ordinary Flink
 * options, so {@code conf/config.yaml}, {@code SET} and {@code -D} all set them; docs/configuration.md
 * is rendered from this list.
 */
public final class AcceleratorOptions {
    private AcceleratorOptions() {}

    public static final ConfigOption<Boolean> ENABLED =
            key("accelerator.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Master switch. When true, the planner hands the supported stateless parts"
                                    + " of streaming plans to the accelerator; when false, every plan is"
                                    + " exactly stock Flink's.");

    public static final ConfigOption<String> PYTHON_EXECUTABLE =
            key("accelerator.python.executable")
                    .stringType()
                    .defaultValue("python3")
                    .withDescription(
                            "Python interpreter that has the 'accelerator' package installed; it runs"
                                    + " the sidecar. Same meaning as Flink's 'python.executable'.");

    public static final ConfigOption<Integer> BATCH_SIZE =
            key("accelerator.batch.size")
                    .intType()
                    .defaultValue(16384)
                    .withDescription(
                            "Maximum number of rows in one batch sent to the sidecar. Larger batches"
                                    + " cost less CPU per row; a batch is sent earlier when"
                                    + " 'accelerator.batch.max-delay' passes.");

    public static final ConfigOption<MemorySize> BATCH_MAX_BYTES =
            key("accelerator.batch.max-bytes")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(4))
                    .withDescription(
                            "A batch is sent as soon as the message bytes (or, behind a stock operator,"
                                    + " the Arrow buffers) it holds reach this size, whatever"
                                    + " 'accelerator.batch.size' allows, so a message larger than this is"
                                    + " sent at once."
                                    + " Each running segment keeps about two such batches in /dev/shm"
                                    + " (request and response), so the default fits a 64 MB /dev/shm (a"
                                    + " container's default) with several segments per TaskManager.");

    public static final ConfigOption<MemorySize> MEMORY_ARROW_LIMIT =
            key("accelerator.memory.arrow-limit")
                    .memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(1024))
                    .withDescription(
                            "Most memory the Arrow buffers of one accelerated operator may hold: the"
                                    + " batch on its way to the sidecar and the answer on its way back,"
                                    + " about three times 'accelerator.batch.max-bytes' or three times the"
                                    + " largest message, whichever is larger (metric arrowPeakBytes). The"
                                    + " buffers come out of Flink's managed memory: the slot's share for"
                                    + " Python processes (the PYTHON weight of"
                                    + " 'taskmanager.memory.managed.consumer-weights'), reserved once per slot"
                                    + " and shared by its accelerated operators (metric managedMemoryBytes);"
                                    + " each of them may hold the smaller of that share and this option. A"
                                    + " batch that needs more fails the task naming what to change. In a slot"
                                    + " without managed memory for Python processes this option alone limits"
                                    + " them, outside Flink's memory budget: count them in"
                                    + " 'taskmanager.memory.task.off-heap.size'.");

    public static final ConfigOption<Duration> BATCH_MAX_DELAY =
            key("accelerator.batch.max-delay")
                    .durationType()
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "Longest time a row waits in a partly filled batch before the batch is"
                                    + " sent anyway; bounds the latency the accelerator adds. Batches"
                                    + " are also sent on every watermark and checkpoint barrier.");

    public static final ConfigOption<Duration> SIDECAR_TIMEOUT =
            key("accelerator.sidecar.timeout")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(60))
                    .withDescription(
                            "Longest time one call to the Python sidecar (one batch, opening or"
                                    + " closing a segment) may take. A sidecar that does not answer in"
                                    + " time counts as hung: it is killed and the task fails, naming the"
                                    + " segment and the batch, so Flink's restart strategy recovers from"
                                    + " the last checkpoint. Must exceed the time the slowest batch takes.");

    public static final ConfigOption<Duration> SIDECAR_HEARTBEAT_INTERVAL =
            key("accelerator.sidecar.heartbeat-interval")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "How often an operator that has sent its sidecar nothing for this long"
                                    + " checks that the sidecar still answers. A sidecar that hangs while"
                                    + " no data flows is thus noticed within this interval plus"
                                    + " 'accelerator.sidecar.timeout', and fails the task like a hung batch.");

    public static final ConfigOption<Boolean> ENCODE_STAGES =
            key("accelerator.encode-stages.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "When true, a Kafka json or csv sink fed by a stock Flink operator (a join,"
                                    + " a stock Calc, a source that stays stock) encodes that operator's rows,"
                                    + " and the Calcs before it the accelerator reproduces, in the sidecar."
                                    + " Rows with TIMESTAMP or TIMESTAMP_LTZ columns stay stock. Set false to"
                                    + " keep every sink fed by a stock operator stock.");

    public static final ConfigOption<Boolean> UPSERT_ENCODE_STAGES =
            key("accelerator.encode-stages.upsert.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "When true (and 'accelerator.encode-stages.enabled'), an upsert-kafka json or csv"
                                    + " sink becomes an encode stage too: the changelog before it is encoded in the"
                                    + " sidecar and each message keeps its row's change kind, so Flink's own sink"
                                    + " writes deletes as tombstones. Its shared-memory regions grow within the"
                                    + " TaskManager's 'accelerator.shared-memory.budget' like every stage's. Set"
                                    + " false to keep such sinks stock.");

    public static final ConfigOption<Boolean> FUSED_ENCODE_STAGES =
            key("accelerator.encode-stages.fused.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "When true, an encode stage whose rows come only from an accelerated group"
                                    + " aggregate, deduplication or Top-N is folded into that operator: its sidecar"
                                    + " encodes the sink's messages of the rows it computes in the same call, and the"
                                    + " operator emits them to the sink (no rows, no second sidecar). A group"
                                    + " aggregate's keys of a type the sidecar cannot read back from Flink's key rows"
                                    + " keep the encode stage.");

    public static final ConfigOption<MemorySize> SHARED_MEMORY_BUDGET =
            key("accelerator.shared-memory.budget")
                    .memoryType()
                    .defaultValue(MemorySize.ZERO)
                    .withDescription(
                            "TaskManager option (config.yaml or -D at the TaskManager's start; a job's SET does not"
                                    + " change it): the bytes of /dev/shm the shared-memory regions of all accelerated"
                                    + " stages of one TaskManager may hold together. Each region's initial size (4 MB)"
                                    + " always counts; a region grows past it for a batch larger than that only when"
                                    + " the growth fits beside the others', else the batch waits until another"
                                    + " stage's grown region is back at its initial size (a batch larger than the"
                                    + " whole budget goes when no other region is grown). 0 (the default): what /dev/shm"
                                    + " has free when the TaskManager's first accelerated operator starts; set it when"
                                    + " several TaskManagers share one /dev/shm (each its part).");

    public static final ConfigOption<Boolean> WINDOW_AGGREGATE =
            key("accelerator.window-aggregate.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs event-time TUMBLE, HOP and CUMULATE window aggregates (COUNT, SUM, MIN, MAX, AVG)"
                                    + " in the sidecar: when"
                                    + " true, each window aggregate the sidecar reproduces exactly runs as an"
                                    + " accelerated operator (its state in Flink's checkpoints, not"
                                    + " savepoint-compatible with the stock operator), and 'accelerator explain'"
                                    + " lists its descriptor, or why it stays stock. Has no effect unless"
                                    + " 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> GROUP_AGGREGATE =
            key("accelerator.group-aggregate.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs non-windowed GROUP BY aggregates (COUNT, SUM, MIN, MAX over an insert-only"
                                    + " input, one phase, mini-batch off, no state TTL) in the sidecar: when true,"
                                    + " each group aggregate the sidecar reproduces exactly runs as an accelerated"
                                    + " operator (its state in Flink's checkpoints, not savepoint-compatible with"
                                    + " the stock operator), and 'accelerator explain' lists its descriptor, or why"
                                    + " it stays stock. Has no effect unless 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> DEDUPLICATE =
            key("accelerator.deduplicate.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs deduplications (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY <processing or event"
                                    + " time>) = 1 without the row number, first or last row, over an insert-only"
                                    + " input, mini-batch off, no state TTL) in the sidecar: when true, each"
                                    + " deduplication the sidecar reproduces exactly runs as an accelerated operator"
                                    + " (its state in Flink's checkpoints, not savepoint-compatible with the stock"
                                    + " operator), and 'accelerator explain' lists its descriptor, or why it stays"
                                    + " stock. Has no effect unless 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> TOP_N =
            key("accelerator.top-n.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs Top-N (ROW_NUMBER() OVER (PARTITION BY ... ORDER BY ...) <= N, N above 1, with"
                                    + " or without the row number, over an insert-only input, no state TTL) in the"
                                    + " sidecar: when true, each Top-N the sidecar reproduces exactly runs as an"
                                    + " accelerated operator (its state in Flink's checkpoints, not"
                                    + " savepoint-compatible with the stock operator), and 'accelerator explain'"
                                    + " lists its descriptor, or why it stays stock. Has no effect unless"
                                    + " 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> JOIN =
            key("accelerator.join.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs regular joins (INNER, LEFT, RIGHT and FULL, and the SEMI and ANTI joins of IN, EXISTS"
                                    + " and NOT EXISTS subqueries, on key equality with or without a non-equi condition the"
                                    + " expression registry reproduces, of two insert-only inputs without unique keys,"
                                    + " mini-batch off (SEMI and ANTI joins: either way), no state TTL, with"
                                    + " 'state.backend.type' hashmap or rocksdb)"
                                    + " in the sidecar: when true, each join the sidecar reproduces exactly runs as an"
                                    + " accelerated operator (its state in Flink's checkpoints, not"
                                    + " savepoint-compatible with the stock operator), and 'accelerator explain'"
                                    + " lists its descriptor, or why it stays stock. Has no effect unless"
                                    + " 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> OVER_AGGREGATE =
            key("accelerator.over-aggregate.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs event-time OVER aggregates (COUNT, SUM, MIN, MAX and AVG OVER (PARTITION BY ..."
                                    + " ORDER BY <event time> ROWS or RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT"
                                    + " ROW), no state TTL) in the sidecar: when true, each OVER aggregate the sidecar"
                                    + " reproduces exactly runs as an accelerated operator (its state in Flink's"
                                    + " checkpoints, not savepoint-compatible with the stock operator), and"
                                    + " 'accelerator explain' lists its descriptor, or why it stays stock. Has no"
                                    + " effect unless 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> WINDOW_AGGREGATE_LOCAL_PHASE =
            key("accelerator.window-aggregate.local-phase.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "Folds the local phase of a two-phase window aggregate (Flink's LocalWindowAggregate"
                                    + " after a Kafka source, COUNT and integer SUM, MIN and MAX over a TUMBLE, HOP or"
                                    + " CUMULATE window) into the rows stage that reads the source: when true, the"
                                    + " stage hands on the local phase's partial accumulators instead of the rows,"
                                    + " where the result stays identical to stock ('accelerator explain' says why"
                                    + " a local phase stays stock); false keeps every local phase stock. Independent of"
                                    + " 'accelerator.window-aggregate.enabled', which takes the global phase. Has no"
                                    + " effect unless 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> GROUP_WINDOW_AGGREGATE =
            key("accelerator.group-window-aggregate.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs event-time group window aggregates (GROUP BY TUMBLE, HOP or SESSION over a TIMESTAMP"
                                    + " rowtime, with COUNT, SUM, MIN, MAX and AVG over an insert-only input, no early or"
                                    + " late firing) in the sidecar: when true, each one the sidecar reproduces exactly"
                                    + " runs as an accelerated operator (its state in Flink's checkpoints, not"
                                    + " savepoint-compatible with the stock operator), and 'accelerator explain' lists"
                                    + " its descriptor, or why it stays stock. Has no effect unless"
                                    + " 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> EXCHANGE_BATCHED =
            key("accelerator.exchange.batched.enabled")
                    .booleanType()
                    .defaultValue(true)
                    .withDescription(
                            "When true (the default), the keyed shuffle between a rows stage (a Kafka source and"
                                    + " its Calcs in the sidecar; over a shared source, one of its branches) and an"
                                    + " accelerated group aggregate, deduplication, Top-N, window aggregate or group"
                                    + " window aggregate carries Arrow batches instead of one row per record: the rows"
                                    + " stage's sidecar computes each row's key group as Flink's keyed shuffle does and"
                                    + " splits its batch by target subtask, and the operator hands each part to its own"
                                    + " sidecar. State and savepoints are those of the per-row path, and watermarks keep"
                                    + " their place among the rows. Keys of other types than BOOLEAN, TINYINT to BIGINT,"
                                    + " DATE, CHAR, VARCHAR and TIMESTAMP(0-3), a source branch whose rows also go"
                                    + " elsewhere, an operator without keys and a local window aggregate that stays"
                                    + " stock keep the per-row shuffle ('accelerator explain' says why); with unaligned"
                                    + " checkpoints on, this edge's barriers stay aligned. Acts only on the operators"
                                    + " the stateful operator options accelerate. False keeps Flink's per-row hash"
                                    + " exchange (same state: a savepoint taken either way restores either way).");

    public static final ConfigOption<Boolean> WINDOW_JOIN =
            key("accelerator.window-join.enabled")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "Runs event-time window joins (INNER, LEFT, RIGHT, FULL, SEMI and ANTI joins of two"
                                    + " TUMBLE, HOP or CUMULATE window TVF inputs on their window and key equality,"
                                    + " with or without a non-equi condition the expression registry reproduces,"
                                    + " asynchronous state off) in the sidecar: when true, each window join the"
                                    + " sidecar reproduces exactly runs as an accelerated operator (its state in"
                                    + " Flink's checkpoints, not savepoint-compatible with the stock operator), and"
                                    + " 'accelerator explain' lists its descriptor, or why it stays stock. Has no"
                                    + " effect unless 'accelerator.enabled' is true.");

    public static final ConfigOption<Boolean> FAIL_ON_FALLBACK =
            key("accelerator.fallback.fail-on-fallback")
                    .booleanType()
                    .defaultValue(false)
                    .withDescription(
                            "When true, a job whose plan has any part the accelerator cannot run"
                                    + " exactly fails at planning time, naming the reason, instead of"
                                    + " running that part on stock Flink.");

    /** All options, in the order the documentation lists them. */
    public static List<ConfigOption<?>> all() {
        return List.of(ENABLED, PYTHON_EXECUTABLE, BATCH_SIZE, BATCH_MAX_BYTES, BATCH_MAX_DELAY, MEMORY_ARROW_LIMIT,
                SHARED_MEMORY_BUDGET, SIDECAR_TIMEOUT, SIDECAR_HEARTBEAT_INTERVAL, ENCODE_STAGES, UPSERT_ENCODE_STAGES, FUSED_ENCODE_STAGES,
                WINDOW_AGGREGATE,
                WINDOW_AGGREGATE_LOCAL_PHASE,
                GROUP_AGGREGATE, DEDUPLICATE, TOP_N, JOIN, OVER_AGGREGATE, GROUP_WINDOW_AGGREGATE, WINDOW_JOIN, EXCHANGE_BATCHED, FAIL_ON_FALLBACK);
    }
}
