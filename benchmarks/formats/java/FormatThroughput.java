import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.formats.avro.AvroFormatFactory;
import org.apache.flink.formats.json.JsonFormatFactory;
import org.apache.flink.table.connector.format.DecodingFormat;
import org.apache.flink.table.connector.format.EncodingFormat;
import org.apache.flink.table.connector.format.ProjectableDecodingFormat;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.factories.DeserializationFormatFactory;
import org.apache.flink.table.factories.SerializationFormatFactory;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeParser;
import org.apache.flink.table.types.utils.TypeConversions;
import org.apache.flink.util.Collector;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Decode and encode throughput of Flink's own `json` / `avro` formats on one thread, the Java side
 * of `accelerator bench-formats`.
 *
 * <p>The (de)serialization schemas come from Flink's format factories with default options, as a
 * table DDL gets them, for the NOT NULL physical row the Kafka connector hands the format. Seed
 * messages are decoded and re-encoded once by Flink: those bytes are written out (both sides time
 * the same input). Then each line `round` (or `check`) on stdin times one round over them, batch
 * after batch: decode = bytes to RowData through the collector a Kafka source uses, encode =
 * RowData to bytes as a Kafka sink does, each timed with System.nanoTime around a whole batch (and
 * the JVM's CPU time, beside it); `check` then also compares the round's output with the messages.
 * The runner sends rounds to this process and to the accelerator's in turn, so both sides see the
 * same machine.
 *
 * <p>Usage: FormatThroughput FORMAT ROW_TYPE SEED_FILE CANONICAL_OUT BATCH. Files hold
 * length-prefixed messages (4-byte big-endian length, then the bytes). Prints one JSON object
 * per line on stdout: the input's description once ready, then one per round; `quit` or the end
 * of stdin ends it.
 */
public final class FormatThroughput {

    /** The DynamicTableSource.Context a planner gives a decoding format: only type information is needed. */
    private static final DynamicTableSource.Context SOURCE_CONTEXT = new DynamicTableSource.Context() {
        @Override
        public <T> TypeInformation<T> createTypeInformation(DataType type) {
            return createTypeInformation(type.getLogicalType());
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> TypeInformation<T> createTypeInformation(LogicalType type) {
            return (TypeInformation<T>) InternalTypeInfo.of(type);
        }

        @Override
        public DynamicTableSource.DataStructureConverter createDataStructureConverter(DataType type) {
            throw new UnsupportedOperationException("the formats under test convert no data structures");
        }
    };

    /** CPU time of the whole JVM (JIT and GC threads too), which shares the one CPU with the timed thread. */
    private static final com.sun.management.OperatingSystemMXBean OS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    /** Collects what the deserializer emits into the batch's row array, as the Kafka source's collector does. */
    private static final class RowsCollector implements Collector<RowData> {
        RowData[] rows;
        int count;

        @Override
        public void collect(RowData row) {
            rows[count++] = row;
        }

        @Override
        public void close() {}
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: FormatThroughput json|avro ROW_TYPE SEED_FILE CANONICAL_OUT BATCH");
            System.exit(2);
        }
        String format = args[0];
        RowType rowType = (RowType) LogicalTypeParser.parse(args[1], FormatThroughput.class.getClassLoader());
        byte[][] seed = read(args[2]);
        int batch = Integer.parseInt(args[4]);

        DeserializationSchema<RowData> decoder = decoder(format, rowType);
        SerializationSchema<RowData> encoder = encoder(format, rowType);
        decoder.open(null);
        encoder.open(null);

        byte[][] messages = new byte[seed.length][];
        RowsCollector collector = new RowsCollector();
        collector.rows = new RowData[1];
        for (int i = 0; i < seed.length; i++) {
            collector.count = 0;
            decoder.deserialize(seed[i], collector);
            if (collector.count != 1) {
                throw new IllegalStateException("seed message " + i + " gave " + collector.count
                        + " rows, expected 1: the seed file does not hold " + format + " rows of " + rowType);
            }
            messages[i] = encoder.serialize(collector.rows[0]);
        }
        write(args[3], messages);

        System.out.println("{\"messages\": " + messages.length
                + ", \"bytes\": " + Arrays.stream(messages).mapToLong(m -> m.length).sum()
                + ", \"java\": \"" + System.getProperty("java.vm.name") + ' ' + System.getProperty("java.version")
                + "\", \"processors\": " + Runtime.getRuntime().availableProcessors() + "}");
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String command = commands.readLine(); command != null; command = commands.readLine()) {
            if (command.equals("quit")) {
                break;
            }
            if (!command.equals("round") && !command.equals("check")) {
                throw new IllegalArgumentException("command " + command + ": expected round, check or quit");
            }
            long[] nanos = round(decoder, encoder, messages, batch, collector, command.equals("check"));
            System.out.println("{\"decode_ns\": " + nanos[0] + ", \"encode_ns\": " + nanos[1]
                    + ", \"decode_cpu_ns\": " + nanos[2] + ", \"encode_cpu_ns\": " + nanos[3] + "}");
            System.out.flush();
        }
    }

    /** Wall and process CPU nanoseconds decoding and encoding every message once, batch by batch. */
    private static long[] round(DeserializationSchema<RowData> decoder, SerializationSchema<RowData> encoder,
                                byte[][] messages, int batch, RowsCollector collector, boolean check)
            throws IOException {
        long[] nanos = new long[4]; // decode wall, encode wall, decode CPU, encode CPU
        RowData[] rows = new RowData[batch];
        byte[][] encoded = new byte[batch][];
        for (int start = 0; start < messages.length; start += batch) {
            int end = Math.min(messages.length, start + batch);
            collector.rows = rows;
            collector.count = 0;
            long c0 = OS.getProcessCpuTime();
            long t0 = System.nanoTime();
            for (int i = start; i < end; i++) {
                decoder.deserialize(messages[i], collector);
            }
            long t1 = System.nanoTime();
            long c1 = OS.getProcessCpuTime();
            int n = collector.count;
            for (int i = 0; i < n; i++) {
                encoded[i] = encoder.serialize(rows[i]);
            }
            long t2 = System.nanoTime();
            long c2 = OS.getProcessCpuTime();
            nanos[0] += t1 - t0;
            nanos[1] += t2 - t1;
            nanos[2] += c1 - c0;
            nanos[3] += c2 - c1;
            if (n != end - start) {
                throw new IllegalStateException("batch at message " + start + ": " + (end - start)
                        + " messages gave " + n + " rows");
            }
            // After the clock stops: the timed round trip must give back Flink's own bytes.
            for (int i = 0; check && i < n; i++) {
                if (!Arrays.equals(encoded[i], messages[start + i])) {
                    throw new IllegalStateException("message " + (start + i) + ": Flink's decode+encode round trip"
                            + " changed the bytes; the benchmark's input is not a fixed point of Flink's format");
                }
            }
        }
        return nanos;
    }

    private static DeserializationSchema<RowData> decoder(String format, RowType rowType) {
        DeserializationFormatFactory factory = factory(format, DeserializationFormatFactory.class);
        DecodingFormat<DeserializationSchema<RowData>> decoding =
                factory.createDecodingFormat(null, new Configuration());
        DataType dataType = TypeConversions.fromLogicalToDataType(rowType);
        int[][] allFields = new int[rowType.getFieldCount()][];
        for (int i = 0; i < allFields.length; i++) {
            allFields[i] = new int[] {i};
        }
        return ((ProjectableDecodingFormat<DeserializationSchema<RowData>>) decoding)
                .createRuntimeDecoder(SOURCE_CONTEXT, dataType, allFields);
    }

    private static SerializationSchema<RowData> encoder(String format, RowType rowType) {
        SerializationFormatFactory factory = factory(format, SerializationFormatFactory.class);
        EncodingFormat<SerializationSchema<RowData>> encoding = factory.createEncodingFormat(null, new Configuration());
        return encoding.createRuntimeEncoder(null, TypeConversions.fromLogicalToDataType(rowType));
    }

    private static <F> F factory(String format, Class<F> kind) {
        switch (format) {
            case "json":
                return kind.cast(new JsonFormatFactory());
            case "avro":
                return kind.cast(new AvroFormatFactory());
            default:
                throw new IllegalArgumentException("format " + format + ": only json and avro are benchmarked");
        }
    }

    private static byte[][] read(String path) throws IOException {
        List<byte[]> out = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(path), 1 << 20))) {
            while (true) {
                int length;
                try {
                    length = in.readInt();
                } catch (EOFException end) {
                    break;
                }
                byte[] message = new byte[length];
                in.readFully(message);
                out.add(message);
            }
        }
        return out.toArray(new byte[0][]);
    }

    private static void write(String path, byte[][] messages) throws IOException {
        try (DataOutputStream out =
                new DataOutputStream(new BufferedOutputStream(new FileOutputStream(path), 1 << 20))) {
            for (byte[] m : messages) {
                out.writeInt(m.length);
                out.write(m);
            }
        }
    }
}
