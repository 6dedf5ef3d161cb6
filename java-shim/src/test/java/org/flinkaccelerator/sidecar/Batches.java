package org.flinkaccelerator.sidecar;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TinyIntVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.flink.table.types.logical.TimestampType;
import org.flinkaccelerator.runtime.arrow.ArrowTypes;

/** Arrow batches for the sidecar tests. */
final class Batches {
    private Batches() {}

    /** What the operator sends for a Kafka source: raw values plus metadata columns. */
    static VectorSchemaRoot kafkaRecords(BufferAllocator allocator, int rows, int valueBytes) {
        Random random = new Random(rows);
        VarBinaryVector value = new VarBinaryVector("value", allocator);
        IntVector partition = new IntVector("partition", allocator);
        BigIntVector offset = new BigIntVector("offset", allocator);
        value.allocateNew((long) rows * valueBytes, rows);
        partition.allocateNew(rows);
        offset.allocateNew(rows);
        byte[] bytes = new byte[valueBytes];
        for (int i = 0; i < rows; i++) {
            random.nextBytes(bytes);
            value.setSafe(i, bytes);
            partition.set(i, i % 4);
            offset.set(i, 1_000_000_000_000L + i);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(List.of(value, partition, offset));
        root.setRowCount(rows);
        return root;
    }

    /** One column of every Arrow type the stage contract maps Flink types to; every 7th row null. */
    static VectorSchemaRoot everyType(BufferAllocator allocator, int rows) {
        VarBinaryVector binary = new VarBinaryVector("binary", allocator);
        VarCharVector string = new VarCharVector("string", allocator);
        BitVector bool = new BitVector("boolean", allocator);
        TinyIntVector tiny = new TinyIntVector("tinyint", allocator);
        SmallIntVector small = new SmallIntVector("smallint", allocator);
        IntVector integer = new IntVector("int", allocator);
        BigIntVector bigint = new BigIntVector("bigint", allocator);
        Float4Vector real = new Float4Vector("float", allocator);
        Float8Vector dbl = new Float8Vector("double", allocator);
        DecimalVector decimal = new DecimalVector("decimal", allocator, 10, 2);
        DateDayVector date = new DateDayVector("date", allocator);
        StructVector timestamp = (StructVector) ArrowTypes.field("timestamp", new TimestampType(9))
                .createVector(allocator);
        BigIntVector millis = (BigIntVector) timestamp.getChild(ArrowTypes.MILLIS);
        IntVector nanos = (IntVector) timestamp.getChild(ArrowTypes.NANOS);
        List<FieldVector> vectors = List.of(binary, string, bool, tiny, small, integer, bigint, real, dbl, decimal,
                date, timestamp);
        for (FieldVector vector : vectors) {
            vector.setInitialCapacity(rows);
            vector.allocateNew();
        }
        for (int i = 0; i < rows; i++) {
            if (i % 7 == 3) {
                for (FieldVector vector : vectors) {
                    vector.setNull(i);
                }
                millis.set(i, 0L); // a null timestamp's NOT NULL parts hold 0
                nanos.set(i, 0);
                continue;
            }
            binary.setSafe(i, new byte[] {(byte) i, 0, (byte) 0xff});
            string.setSafe(i, ("r\u00f6w " + i + " \ud83d\ude00").getBytes(StandardCharsets.UTF_8));
            bool.set(i, i % 2);
            tiny.set(i, (byte) (i - 100));
            small.set(i, (short) (i * 300 - 30_000));
            integer.set(i, Integer.MIN_VALUE + i);
            bigint.set(i, Long.MAX_VALUE - i);
            real.set(i, i / 3f);
            dbl.set(i, i == 1 ? Double.NaN : i * 1e300);
            decimal.set(i, new BigDecimal(i).movePointLeft(2).add(new BigDecimal("12345678.00")));
            date.set(i, 19_000 + i);
            timestamp.setIndexDefined(i);
            millis.set(i, i % 2 == 0 ? -62_167_219_200_000L + i : 253_402_300_799_999L - i); // years 0000, 9999
            nanos.set(i, 999_999 - i);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(vectors);
        root.setRowCount(rows);
        return root;
    }
}
