package org.flinkaccelerator.runtime.windowagg;

import java.math.BigDecimal;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.dag.Transformation;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperatorFactory;
import org.apache.flink.streaming.api.transformations.OneInputTransformation;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.runtime.operators.testutils.MockEnvironment;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.planner.plan.logical.TimeAttributeWindowingStrategy;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeGraph;
import org.apache.flink.table.runtime.operators.window.tvf.common.WindowAggOperator;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.util.InstantiationUtil;
import org.flinkaccelerator.planner.FoundNode;
import org.flinkaccelerator.planner.stage.SqlPlans;
import org.flinkaccelerator.planner.windowagg.WindowAggExport;
import org.flinkaccelerator.planner.windowagg.WindowAggNode;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.sidecar.TestPython;

/**
 * Stock Flink's window aggregate operator and ours for the same SQL, both in Flink's keyed
 * operator harness: the stock operator as Flink's planner builds it (translated transformation,
 * its key selector and key type), ours from the descriptor the planner export writes for the
 * same exec node. Random input streams and a canonical form of the output to compare.
 */
public final class WindowAggHarnesses {
    static final String TABLE = """
            CREATE TABLE bids (k1 STRING, k2 INT, a BIGINT, b INT, c DOUBLE, d DECIMAL(10, 2), e TINYINT,
              f SMALLINT, g FLOAT, s STRING, dt DATE, tm TIME(3), t0 TIMESTAMP(0), t6 TIMESTAMP(6), t9 TIMESTAMP(9),
              l3 TIMESTAMP_LTZ(3), l6 TIMESTAMP_LTZ(6), bo BOOLEAN, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH (
              'connector' = 'kafka', 'topic' = 'bids', 'properties.bootstrap.servers' = 'localhost:9092',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            CREATE TABLE bids_ltz (k1 STRING, b INT, c DOUBLE, ts TIMESTAMP_LTZ(3), WATERMARK FOR ts AS ts) WITH (
              'connector' = 'kafka', 'topic' = 'bids_ltz', 'properties.bootstrap.servers' = 'localhost:9092',
              'scan.startup.mode' = 'earliest-offset', 'format' = 'json');
            """;

    /** The keyed state backend a harness runs on, with its timers. */
    public enum Backend {
        HEAP,
        /** RocksDB with its timers in RocksDB too (Flink's default for it). */
        ROCKSDB,
        /** RocksDB with heap timers: Flink writes the timers into raw keyed state at a checkpoint. */
        ROCKSDB_HEAP_TIMERS;

        public void apply(AbstractStreamOperatorTestHarness<?> harness) {
            if (this == HEAP) {
                return;
            }
            harness.setStateBackend(RocksDbBackend.of(this == ROCKSDB));
        }
    }

    /** What a planned window aggregate gives both operators, and the state backend their harnesses use. */
    record Planned(WindowAggOperator<?, ?> stock, KeySelector<RowData, RowData> keySelector,
            TypeInformation<RowData> keyType, RowType inputType, RowType outputType, WindowAggSpec spec,
            Backend backend) {

        /** The same operators on {@code backend}. */
        Planned on(Backend backend) {
            return new Planned(stock, keySelector, keyType, inputType, outputType, spec, backend);
        }

        /** A fresh copy of the stock operator (each harness needs its own). */
        WindowAggOperator<?, ?> newStock() throws Exception {
            return InstantiationUtil.clone(stock, WindowAggHarnesses.class.getClassLoader());
        }

        AcceleratedWindowAggOperator newAccelerated() {
            return new AcceleratedWindowAggOperator(spec);
        }

        /** The accelerated operator keeping its timers on Flink's timer service, as on a backend whose order the sidecar does not reproduce. */
        AcceleratedWindowAggOperator newAcceleratedOnFlinkTimers() {
            return newAccelerated().onFlinkTimers();
        }

        AcceleratedWindowAggOperator newAccelerated(int batchSize) {
            return newAccelerated(batchSize, spec.batchBytes());
        }

        AcceleratedWindowAggOperator newAccelerated(int batchSize, long batchBytes) {
            return new AcceleratedWindowAggOperator(new WindowAggSpec(spec.descriptorJson(), spec.inputType(),
                    spec.timeIndex(), spec.pythonExecutable(), batchSize, batchBytes, spec.sidecarTimeout(),
                    spec.arrowLimit()));
        }

        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
                OneInputStreamOperator<RowData, RowData> operator, int maxParallelism, int parallelism, int subtask)
                throws Exception {
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                    new KeyedOneInputStreamOperatorTestHarness<>(operator, keySelector, keyType, maxParallelism,
                            parallelism, subtask);
            backend.apply(harness);
            harness.setup(new RowDataSerializer(outputType));
            return harness;
        }

        /** A harness of one subtask (max parallelism 128) in {@code environment} (its managed memory, its metrics). */
        KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness(
                OneInputStreamOperator<RowData, RowData> operator, MockEnvironment environment) throws Exception {
            KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness =
                    new KeyedOneInputStreamOperatorTestHarness<>(operator, keySelector, keyType, environment);
            backend.apply(harness);
            harness.setup(new RowDataSerializer(outputType));
            return harness;
        }
    }

    private WindowAggHarnesses() {}

    /**
     * Plans {@code INSERT INTO results <select>} over {@link #TABLE} with {@code options} (SET
     * statements' key/value pairs) and returns its one window aggregate.
     */
    @SuppressWarnings("unchecked")
    static Planned plan(String select, String... options) throws Exception {
        SqlPlans plans = new SqlPlans();
        for (int i = 0; i < options.length; i += 2) {
            plans.set(options[i], options[i + 1]);
        }
        for (String ddl : TABLE.split(";\n")) {
            if (!ddl.isBlank()) {
                plans.env().executeSql(ddl.strip().replaceAll(";$", ""));
            }
        }
        org.apache.flink.table.api.Schema schema = org.apache.flink.table.api.Schema.newBuilder()
                .fromResolvedSchema(plans.env().sqlQuery(select).getResolvedSchema()).build();
        plans.env().createTemporaryTable("results", org.apache.flink.table.api.TableDescriptor.forConnector("kafka")
                .schema(schema).option("topic", "results").option("properties.bootstrap.servers", "localhost:9092")
                .format("json").build());
        ExecNodeGraph graph = plans.plan("INSERT INTO results " + select + ";\n");
        List<FoundNode<WindowAggNode>> found = WindowAggNode.find(graph);
        if (found.size() != 1) {
            throw new IllegalStateException("expected one window aggregate, found " + found.size());
        }
        WindowAggExport export = WindowAggExport.of("bids-window-agg", found.get(0).fields(), plans.config());
        if (!export.accelerated()) {
            throw new IllegalStateException("the window aggregate stays stock: " + export.fallback());
        }
        var windowing = found.get(0).fields().windowing();
        int timeIndex = windowing instanceof TimeAttributeWindowingStrategy time ? time.getTimeAttributeIndex()
                : ((org.apache.flink.table.planner.plan.logical.SliceAttachedWindowingStrategy) windowing).getSliceEnd();
        RowType inputType = found.get(0).fields().inputType();
        WindowAggSpec spec = new WindowAggSpec(export.toJson(), inputType, timeIndex, TestPython.path());

        OneInputTransformation<RowData, RowData> windowAgg = null;
        Deque<Transformation<?>> pending = new ArrayDeque<>(plans.translate(graph));
        while (!pending.isEmpty()) {
            Transformation<?> t = pending.pop();
            if (t instanceof OneInputTransformation<?, ?> one) {
                StreamOperatorFactory<?> factory = one.getOperatorFactory();
                if (factory instanceof SimpleOperatorFactory<?> simple
                        && simple.getOperator() instanceof WindowAggOperator<?, ?>) {
                    windowAgg = (OneInputTransformation<RowData, RowData>) one;
                }
            }
            pending.addAll(t.getInputs());
        }
        if (windowAgg == null) {
            throw new IllegalStateException("the translated plan has no WindowAggOperator");
        }
        WindowAggOperator<?, ?> stock = (WindowAggOperator<?, ?>)
                ((SimpleOperatorFactory<?>) windowAgg.getOperatorFactory()).getOperator();
        RowType stockInput = ((InternalTypeInfo<RowData>) windowAgg.getInputType()).toRowType();
        if (!stockInput.equals(inputType)) {
            throw new IllegalStateException("the stock operator reads " + stockInput + ", the export " + inputType);
        }
        return new Planned(stock, (KeySelector<RowData, RowData>) windowAgg.getStateKeySelector(),
                (TypeInformation<RowData>) windowAgg.getStateKeyType(), inputType,
                ((InternalTypeInfo<RowData>) windowAgg.getOutputType()).toRowType(), spec, Backend.HEAP);
    }

    /** One input event: a row or a watermark. */
    sealed interface Event permits Row, Mark {}

    record Row(RowData row) implements Event {}

    record Mark(long watermark) implements Event {}

    /**
     * A random stream over {@code inputType}: keys from a few values (NULL included), values
     * with NULLs and extremes, rows mostly in time order with some late ones, and watermarks
     * now and then, sometimes several at once, some not advancing, some jumping windows. A global
     * phase's rows carry the end of the {@code sliceSize} slice their time falls in.
     */
    static List<Event> stream(RowType inputType, int timeIndex, long seed, int rows, long windowSize, long sliceSize) {
        Random random = new Random(seed);
        List<Event> out = new ArrayList<>();
        RowDataSerializer binary = new RowDataSerializer(inputType);
        long base = 1_700_000_000_000L - 1_700_000_000_000L % windowSize + random.nextInt(1000);
        long watermark = Long.MIN_VALUE;
        long maxTime = base;
        for (int i = 0; i < rows; i++) {
            long time;
            int shape = random.nextInt(20);
            if (shape == 0 && watermark != Long.MIN_VALUE) {
                time = watermark - random.nextInt((int) (2 * windowSize));  // late, or nearly
            } else {
                time = maxTime - random.nextInt((int) (windowSize / 2)) + random.nextInt((int) (windowSize / 3));
            }
            maxTime = Math.max(maxTime, time);
            GenericRowData row = new GenericRowData(inputType.getFieldCount());
            for (int f = 0; f < inputType.getFieldCount(); f++) {
                Object timeValue = inputType.getTypeAt(f).getTypeRoot() == LogicalTypeRoot.BIGINT
                        ? Math.floorDiv(time, sliceSize) * sliceSize + sliceSize  // a global phase's slice end
                        : TimestampData.fromEpochMillis(time);
                row.setField(f, f == timeIndex ? timeValue
                        : value(inputType.getTypeAt(f), inputType.getFieldNames().get(f), random));
            }
            // Binary rows, as Flink's network stack hands them over (a global phase's slice end,
            // BIGINT in the type, is read by stock as a compact TIMESTAMP(3) of the same long).
            out.add(new Row(binary.toBinaryRow(row).copy()));
            if (random.nextInt(15) == 0) {
                int marks = random.nextInt(4) == 0 ? 1 + random.nextInt(4) : 1;
                for (int m = 0; m < marks; m++) {
                    long next = random.nextInt(6) == 0 && watermark != Long.MIN_VALUE ? watermark - random.nextInt(5000)
                            : maxTime - random.nextInt((int) windowSize) + (random.nextInt(8) == 0 ? 3 * windowSize : 0);
                    watermark = Math.max(watermark, next);
                    out.add(new Mark(next));
                }
            }
        }
        out.add(new Mark(Long.MAX_VALUE));
        return out;
    }

    private static final String[] STRINGS = {"a", "b", "\u00fcn\u00efcode", "", "a long key string with spaces"};
    /**
     * Code points whose UTF-8 bytes order differently from their UTF-16 units or from signed bytes:
     * ASCII, two- and three-byte ones (U+E000 to U+FFFF sort after a supplementary character's
     * surrogates in UTF-16, before its four bytes in UTF-8) and supplementary ones.
     */
    private static final int[] CODE_POINTS = {'a', 'b', 'z', ' ', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xe000, 0xfffd,
            0xffff, 0x10000, 0x1f600, 0x10ffff};
    /** 0001-01-01, around the epoch, the ends of an int64 of nanoseconds (1677, 2262), 9999-12-31. */
    private static final long[] INSTANTS = {-62_135_596_800_000L, -9_223_372_036_855L, -1L, 0L, 1L,
            9_223_372_036_854L, 9_223_372_036_855L, 253_402_300_799_999L};
    private static final int[] DAYS = {-719_162, -1, 0, 1, 106_751, 2_932_896};

    /**
     * A random string value: one of a few (so that extremes tie), or up to four code points of
     * {@link #CODE_POINTS} and of the BMP below the surrogates.
     */
    private static StringData string(Random random) {
        if (random.nextInt(3) == 0) {
            return StringData.fromString(STRINGS[random.nextInt(STRINGS.length)]);
        }
        StringBuilder out = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            out.appendCodePoint(random.nextBoolean() ? CODE_POINTS[random.nextInt(CODE_POINTS.length)]
                    : 0x20 + random.nextInt(0xd000));
        }
        return StringData.fromString(out.toString());
    }

    /** A random timestamp of {@code precision} digits from year 1 to 9999, the edges of {@link #INSTANTS} often. */
    private static TimestampData timestamp(int precision, Random random) {
        long millis = random.nextInt(3) == 0 ? INSTANTS[random.nextInt(INSTANTS.length)]
                : random.nextLong(INSTANTS[0], INSTANTS[INSTANTS.length - 1] + 1);
        int nanos = random.nextInt(1_000_000);
        if (precision <= 3) {
            long unit = (long) Math.pow(10, 3 - precision);
            return TimestampData.fromEpochMillis(Math.floorDiv(millis, unit) * unit);
        }
        int unit = (int) Math.pow(10, 9 - precision);
        return TimestampData.fromEpochMillis(millis, nanos / unit * unit);
    }

    /**
     * A random value of {@code type}: NULLs, extremes and, for DOUBLE, NaN and both zeros; a few
     * values for a key field ({@code k...}); strings, dates, times and timestamps as {@link #string},
     * {@link #DAYS} and {@link #timestamp} make them.
     */
    public static Object value(LogicalType type, String name, Random random) {
        boolean key = name.startsWith("k");
        // A global phase's COUNT partials (count1$0, count$1, ...) are never NULL: the local phase starts them at 0.
        if (random.nextInt(key ? 12 : 7) == 0 && type.isNullable() && !name.startsWith("count")) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case VARCHAR:
            case CHAR:
                return key ? StringData.fromString(STRINGS[random.nextInt(STRINGS.length)]) : string(random);
            case DATE:
                return random.nextInt(3) == 0 ? DAYS[random.nextInt(DAYS.length)]
                        : random.nextInt(DAYS[0], DAYS[DAYS.length - 1] + 1);
            case TIME_WITHOUT_TIME_ZONE: {
                int unit = (int) Math.pow(10, 3 - Math.min(3, LogicalTypeChecks.getPrecision(type)));
                return random.nextInt(86_400_000) / unit * unit;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return timestamp(LogicalTypeChecks.getPrecision(type), random);
            case INTEGER:
                if (key) {
                    return random.nextInt(3);
                }
                return random.nextInt(10) == 0 ? (random.nextBoolean() ? Integer.MAX_VALUE - random.nextInt(3)
                        : Integer.MIN_VALUE + random.nextInt(3)) : random.nextInt(2001) - 1000;
            case BOOLEAN:
                return random.nextBoolean();
            case TINYINT:
                return (byte) (random.nextInt(10) == 0 ? (random.nextBoolean() ? Byte.MAX_VALUE : Byte.MIN_VALUE)
                        : random.nextInt(201) - 100);
            case SMALLINT:
                return (short) (random.nextInt(10) == 0 ? (random.nextBoolean() ? Short.MAX_VALUE : Short.MIN_VALUE)
                        : random.nextInt(20001) - 10000);
            case FLOAT: {
                int shape = random.nextInt(20);
                return shape == 0 ? Float.NaN : shape == 1 ? -0.0f : shape == 2 ? 3e38f : (float) random.nextGaussian() * 100;
            }
            case BIGINT:
                return random.nextInt(10) == 0 ? (random.nextBoolean() ? Long.MAX_VALUE - random.nextInt(3)
                        : Long.MIN_VALUE + random.nextInt(3)) : (long) random.nextInt(2_000_001) - 1_000_000;
            case DOUBLE: {
                int shape = random.nextInt(20);
                if (shape == 0) {
                    return Double.NaN;
                }
                if (shape == 1) {
                    return -0.0;
                }
                if (shape == 2) {
                    return 0.0;
                }
                if (shape == 3) {
                    return random.nextBoolean() ? 1e16 : -1e16;
                }
                return random.nextGaussian() * 1000;
            }
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                BigDecimal value = BigDecimal.valueOf(random.nextLong() % 10_000_000_00L, decimal.getScale());
                return DecimalData.fromBigDecimal(value, decimal.getPrecision(), decimal.getScale());
            }
            default:
                throw new IllegalArgumentException("no random values of " + type);
        }
    }

    /** The operator's numLateRecordsDropped metric (stock's or ours). */
    static long dropped(OneInputStreamOperator<RowData, RowData> operator) {
        return operator instanceof WindowAggOperator<?, ?> stock ? stock.getNumLateRecordsDropped().getCount()
                : ((AcceleratedWindowAggOperator) operator).getNumLateRecordsDropped().getCount();
    }

    /** Feeds {@code events} from {@code from} (inclusive) to {@code to} (exclusive) to the harness. */
    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, List<Event> events,
            int from, int to) throws Exception {
        for (Event event : events.subList(from, to)) {
            feed(harness, event);
        }
    }

    static void feed(KeyedOneInputStreamOperatorTestHarness<RowData, RowData, RowData> harness, Event event)
            throws Exception {
        if (event instanceof Row row) {
            harness.processElement(new StreamRecord<>(row.row()));
        } else {
            harness.processWatermark(new Watermark(((Mark) event).watermark()));
        }
    }

    /**
     * The harness's output, one line per element: a record as its kind, whether it has a
     * timestamp, its fields (a NULL as null, also in a NOT NULL column, as Flink 2 reads it: 1.20's
     * getter reads the slot there, whose value depends on the row's class) and the hex of Flink's
     * binary form of the row (what byte-identical means), a watermark as its timestamp.
     */
    public static List<String> output(AbstractStreamOperatorTestHarness<RowData> harness,
            RowType outputType) {
        RowDataSerializer serializer = new RowDataSerializer(outputType);
        RowData.FieldGetter[] getters = new RowData.FieldGetter[outputType.getFieldCount()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = FieldGetters.nullChecked(outputType.getTypeAt(i), i);
        }
        List<String> out = new ArrayList<>();
        for (Object element : harness.getOutput()) {
            if (element instanceof Watermark mark) {
                out.add("watermark " + mark.getTimestamp());
            } else if (element instanceof StreamRecord<?> record) {
                RowData row = (RowData) record.getValue();
                StringBuilder line = new StringBuilder(row.getRowKind().shortString())
                        .append(record.hasTimestamp() ? " @" + record.getTimestamp() : "").append(" (");
                for (int i = 0; i < getters.length; i++) {
                    line.append(i == 0 ? "" : ", ").append(getters[i].getFieldOrNull(row));
                }
                org.apache.flink.table.data.binary.BinaryRowData binary = serializer.toBinaryRow(row);
                byte[] bytes = org.apache.flink.table.data.binary.BinarySegmentUtils.copyToBytes(binary.getSegments(),
                        binary.getOffset(), binary.getSizeInBytes());
                out.add(line.append(") ").append(HexFormat.of().formatHex(bytes)).toString());
            } else {
                out.add(String.valueOf(element));
            }
        }
        return out;
    }
}
