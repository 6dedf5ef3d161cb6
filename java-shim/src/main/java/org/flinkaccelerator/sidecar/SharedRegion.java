package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ReadChannel;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;
import org.apache.arrow.vector.ipc.message.MessageSerializer;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * One shared-memory file in {@code /dev/shm} that carries one Arrow record batch at a time between
 * the JVM and the sidecar, so bulk data never crosses a socket. The side that writes a region
 * creates it (mode 0600, unguessable name) and is the only one that writes or grows it; the other
 * side attaches by path and only reads.
 *
 * <p>Layout and commit protocol are the same as in {@code accelerator/sidecar/shm.py} (see
 * docs/architecture.md, "Transport"): a 64-byte little-endian header (magic {@code FLKACSHM},
 * protocol version, header size, region size, committed sequence, committed length) followed by one
 * Arrow IPC stream. The writer zeroes the sequence, grows the file if needed, writes the body, then
 * stores the length and finally the sequence; a reader only reads the sequence it asked for. A
 * region that grew for a large batch shrinks back to its initial size (the file is truncated while
 * the sequence is 0) as soon as a batch fits that size again, and the reader re-maps to the size the
 * header gives. {@link SidecarProcess} sizes its request region explicitly ({@link #sizeFor},
 * {@link #resize}) within a grant of the TaskManager's {@link SharedMemoryBudget}.
 *
 * <p>Methods are synchronized so that {@link #close()} from a cancelling thread can never unmap
 * memory another thread is copying.
 */
public final class SharedRegion implements AutoCloseable {
    static final byte[] MAGIC = "FLKACSHM".getBytes(StandardCharsets.US_ASCII);
    static final int HEADER_SIZE = 64;
    static final Path SHM_DIRECTORY = Path.of("/dev/shm");
    /** Every region's file name is {@code flink-accelerator-<role>-<creator pid>-<32 hex digits>}, on both sides. */
    private static final String NAME_PREFIX = "flink-accelerator-";
    private static final int VERSION_AT = 8;
    private static final int HEADER_SIZE_AT = 12;
    private static final int REGION_SIZE_AT = 16;
    private static final int SEQUENCE_AT = 24;
    private static final int LENGTH_AT = 32;
    private static final int PAGE = 4096;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path path;
    private final FileChannel file;
    private final boolean writer;
    private final long initialSize;
    private MappedByteBuffer map;
    private boolean closed;

    private SharedRegion(Path path, FileChannel file, boolean writer) throws IOException {
        this.path = path;
        this.file = file;
        this.writer = writer;
        mapTo(file.size());
        this.initialSize = map.capacity();
    }

    /**
     * A new region owned by this process. {@code role} goes into the file name so an operator can
     * tell leftover files apart; the random part makes the name unguessable.
     */
    public static SharedRegion create(String role, long size) throws IOException {
        return create(SHM_DIRECTORY, role, size);
    }

    static SharedRegion create(Path directory, String role, long size) throws IOException {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        Path path = directory.resolve(NAME_PREFIX + role + "-" + ProcessHandle.current().pid()
                + "-" + HexFormat.of().formatHex(random));
        FileChannel file;
        try {
            file = FileChannel.open(path,
                    Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE),
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (NoSuchFileException | AccessDeniedException e) {
            throw new IOException("Cannot create a shared-memory file in " + directory + " (" + e + "): the"
                    + " accelerator hands batches to its sidecar through files there, and on this TaskManager it"
                    + " does not exist or its user cannot write to it. Give the TaskManager a writable " + directory
                    + " (a tmpfs: containers have one by default; on Kubernetes, an emptyDir volume with medium"
                    + " Memory mounted there), or run the job without the accelerator (accelerator.enabled: false)", e);
        }
        try {
            long rounded = roundUp(Math.max(size, HEADER_SIZE + PAGE));
            reserve(file, 0, rounded, path);
            SharedRegion region = new SharedRegion(path, file, true);
            region.writeHeader(rounded);
            return region;
        } catch (IOException | RuntimeException e) {
            file.close();
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /** Whether {@code fileName} names a region of {@code role} as this class and the sidecar's shm.py name them. */
    static boolean isRegionName(String fileName, String role) {
        return fileName.matches(Pattern.quote(NAME_PREFIX + role + "-") + "[0-9]+-[0-9a-f]{32}");
    }

    /** The region at {@code path}, written by the sidecar, for reading. */
    public static SharedRegion attach(Path path) throws IOException {
        FileChannel file = FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try {
            SharedRegion region = new SharedRegion(path, file, false);
            region.checkHeader();
            return region;
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    /** Length of the file in bytes, header included. */
    public synchronized long size() {
        return map.capacity();
    }

    /** The size the region was created with, and shrinks back to. */
    public long initialSize() {
        return initialSize;
    }

    /**
     * The region size (header included, page-rounded, never below the initial size) that writing
     * {@code root} needs: its exact IPC body, counted without copying the buffers.
     */
    public static long sizeFor(VectorSchemaRoot root, long initialSize) throws IOException {
        BodyCounter body = new BodyCounter();
        try (ArrowStreamWriter stream = new ArrowStreamWriter(root, null, body)) {
            stream.start();
            stream.writeBatch();
            stream.end();
        }
        return Math.max(initialSize, roundUp(HEADER_SIZE + body.length));
    }

    /**
     * Grows or shrinks the file to {@code size} (page-rounded, never below the initial size) and
     * withdraws the committed batch: only while the reader reads nothing. The owner sizes the
     * region this way within its {@link SharedMemoryBudget} grant before a large batch, and back
     * after it.
     */
    public synchronized void resize(long size) throws IOException {
        ensureOpen();
        if (!writer) {
            throw new IllegalStateException(path + " was attached for reading; only its creator resizes it");
        }
        long target = roundUp(Math.max(size, initialSize));
        if (target == map.capacity()) {
            return;
        }
        map.putLong(SEQUENCE_AT, 0);
        if (target > map.capacity()) {
            reserve(file, map.capacity(), target, path);
            mapTo(target);
            map.putLong(REGION_SIZE_AT, target);
        } else {
            mapTo(target);
            file.truncate(target);
            map.putLong(REGION_SIZE_AT, target);
        }
    }

    /** Writes {@code root} as the body of batch {@code sequence} and commits it; returns the body length. */
    public synchronized long write(long sequence, VectorSchemaRoot root) throws IOException {
        ensureOpen();
        if (!writer) {
            throw new IllegalStateException(path + " was attached for reading; only its creator writes it");
        }
        if (sequence <= 0) {
            throw new IllegalArgumentException("sequence numbers start at 1, got " + sequence);
        }
        map.putLong(SEQUENCE_AT, 0);
        if (map.capacity() > initialSize && HEADER_SIZE + bodyEstimate(root) <= initialSize) {
            shrink();
        }
        BodyWriter body = new BodyWriter();
        try (ArrowStreamWriter stream = new ArrowStreamWriter(root, null, body)) {
            stream.start();
            stream.writeBatch();
            stream.end();
        }
        map.putLong(LENGTH_AT, body.length);
        map.putLong(SEQUENCE_AT, sequence);
        return body.length;
    }

    /**
     * The batches committed as {@code sequence}, one per Arrow IPC stream of the body (most
     * answers hold one; a watermarked rows stage's two), copied into buffers of {@code allocator};
     * the caller owns (and closes) the returned roots.
     */
    public synchronized List<VectorSchemaRoot> read(long sequence, BufferAllocator allocator) throws IOException {
        ensureOpen();
        long committed = map.getLong(SEQUENCE_AT);
        if (committed != sequence) {
            throw new IOException(path + ": asked for batch " + sequence + " but "
                    + (committed == 0 ? "nothing is committed (a write is in progress or failed)"
                            : "batch " + committed + " is committed"));
        }
        long length = map.getLong(LENGTH_AT);
        long regionSize = map.getLong(REGION_SIZE_AT);
        if (regionSize != map.capacity()) {
            mapTo(regionSize);
        }
        if (HEADER_SIZE + length > map.capacity()) {
            throw new IOException(path + ": batch " + sequence + " claims " + length + " bytes but the region holds "
                    + (map.capacity() - HEADER_SIZE));
        }
        ByteBuffer bytes = map.duplicate().position(HEADER_SIZE).limit(HEADER_SIZE + (int) length).slice();
        ReadChannel in = new ReadChannel(new BodyReader(bytes));
        List<VectorSchemaRoot> roots = new ArrayList<>();
        try {
            do {
                roots.add(readStream(in, sequence, allocator));
            } while (in.bytesRead() < length);
            return roots;
        } catch (IOException | RuntimeException e) {
            roots.forEach(VectorSchemaRoot::close);
            throw e;
        }
    }

    /** One IPC stream: its schema, one record batch, then the end-of-stream marker. */
    private VectorSchemaRoot readStream(ReadChannel in, long sequence, BufferAllocator allocator) throws IOException {
        Schema schema = MessageSerializer.deserializeSchema(in);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator);
        try (ArrowRecordBatch batch = MessageSerializer.deserializeRecordBatch(in, allocator)) {
            if (batch == null) {
                throw new IOException(path + ": batch " + sequence + " has a schema but no record batch");
            }
            new VectorLoader(root).load(batch);
            if (MessageSerializer.readMessage(in) != null) {
                throw new IOException(path + ": batch " + sequence + " holds a stream of more than one record batch");
            }
            return root;
        } catch (IOException | RuntimeException e) {
            root.close();
            throw e;
        }
    }

    /** Unmaps and, for the writer, removes the file. Safe to call more than once. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        Unmapper.unmap(map);
        map = null;
        file.close();
        if (writer) {
            Files.deleteIfExists(path);
        }
    }

    private void writeHeader(long regionSize) {
        map.put(0, new byte[HEADER_SIZE]);
        map.put(0, MAGIC);
        map.putInt(VERSION_AT, SidecarControl.PROTOCOL_VERSION);
        map.putInt(HEADER_SIZE_AT, HEADER_SIZE);
        map.putLong(REGION_SIZE_AT, regionSize);
    }

    private void checkHeader() throws IOException {
        byte[] magic = new byte[MAGIC.length];
        map.get(0, magic);
        if (!Arrays.equals(magic, MAGIC) || map.getInt(HEADER_SIZE_AT) != HEADER_SIZE) {
            throw new IOException(path + " is not a flink-accelerator region (bad header)");
        }
        int version = map.getInt(VERSION_AT);
        if (version != SidecarControl.PROTOCOL_VERSION) {
            throw new IOException(path + " was written with transport protocol " + version + "; this jar speaks "
                    + SidecarControl.PROTOCOL_VERSION);
        }
    }

    private void grow(long needed) throws IOException {
        long size = roundUp(Math.max(needed, 2L * map.capacity()));
        reserve(file, map.capacity(), size, path);
        mapTo(size);
        map.putLong(REGION_SIZE_AT, size);
    }

    /**
     * Gives the memory past the initial size back (tmpfs frees truncated pages), so one large
     * message does not keep it for the region's life.
     */
    private void shrink() throws IOException {
        mapTo(initialSize);
        file.truncate(initialSize);
        map.putLong(REGION_SIZE_AT, initialSize);
    }

    /**
     * The IPC body {@code root} makes, from above: its buffers plus room for the schema and batch
     * metadata (a region that turns out too small still grows while the body is written).
     */
    private static long bodyEstimate(VectorSchemaRoot root) {
        long bytes = 64L << 10;
        for (FieldVector vector : root.getFieldVectors()) {
            bytes += vector.getBufferSize() + 64L * (1 + vector.getChildrenFromFields().size());
        }
        return bytes;
    }

    private void mapTo(long size) throws IOException {
        if (size > Integer.MAX_VALUE) {
            throw new IOException(path + ": a batch of more than 2 GiB does not fit a region; lower "
                    + "accelerator.batch.max-bytes or accelerator.batch.size");
        }
        MappedByteBuffer previous = map;
        map = file.map(writer ? FileChannel.MapMode.READ_WRITE : FileChannel.MapMode.READ_ONLY, 0, size);
        map.order(ByteOrder.LITTLE_ENDIAN);
        Unmapper.unmap(previous);
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(path + " is closed");
        }
    }

    /**
     * Writes zeros from {@code from} to {@code to} so the memory is taken now: a full /dev/shm then
     * fails here with an IOException instead of killing the JVM with SIGBUS when the mapping is
     * written. Runs only when a region is created or grows.
     */
    private static void reserve(FileChannel file, long from, long to, Path path) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocate((int) Math.min(to - from, 1 << 20));
        try {
            for (long position = from; position < to; ) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), to - position));
                position += file.write(zeros, position);
            }
        } catch (IOException e) {
            throw new IOException("Cannot grow " + path + " to " + to + " bytes (" + e.getMessage() + "). If "
                    + path.getParent() + " is full, give the TaskManager more shared memory (containers: a larger"
                    + " /dev/shm, e.g. docker --shm-size) or lower accelerator.batch.max-bytes", e);
        }
    }

    private static long roundUp(long size) {
        return (size + PAGE - 1) / PAGE * PAGE;
    }

    /** The body of the region as the channel Arrow's stream writer writes to; grows the region. */
    private final class BodyWriter implements WritableByteChannel {
        long length;

        @Override
        public int write(ByteBuffer src) throws IOException {
            int n = src.remaining();
            if (HEADER_SIZE + length + n > map.capacity()) {
                grow(HEADER_SIZE + length + n);
            }
            map.put(HEADER_SIZE + (int) length, src, src.position(), n);
            src.position(src.limit());
            length += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    /** Counts the bytes Arrow's stream writer would write, copying nothing. */
    private static final class BodyCounter implements WritableByteChannel {
        long length;

        @Override
        public int write(ByteBuffer src) {
            int n = src.remaining();
            src.position(src.limit());
            length += n;
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    /** A committed body as the channel Arrow's message reader reads from. */
    private static final class BodyReader implements ReadableByteChannel {
        private final ByteBuffer bytes;

        BodyReader(ByteBuffer bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (!bytes.hasRemaining()) {
                return -1;
            }
            int n = Math.min(dst.remaining(), bytes.remaining());
            dst.put(dst.position(), bytes, bytes.position(), n);
            dst.position(dst.position() + n);
            bytes.position(bytes.position() + n);
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    /**
     * Releases a mapping now instead of at some later garbage collection, so removed region files
     * free their memory at once. Safe because no view of a mapping outlives the synchronized method
     * that made it (reads copy into Arrow buffers).
     */
    private static final class Unmapper {
        private static final Object UNSAFE;
        private static final Method INVOKE_CLEANER;

        static {
            Object unsafe = null;
            Method invokeCleaner = null;
            try {
                Class<?> type = Class.forName("sun.misc.Unsafe");
                Field field = type.getDeclaredField("theUnsafe");
                field.setAccessible(true);
                unsafe = field.get(null);
                invokeCleaner = type.getMethod("invokeCleaner", ByteBuffer.class);
            } catch (ReflectiveOperationException | RuntimeException e) {
                // Without it, the garbage collector unmaps; only the memory is held a little longer.
            }
            UNSAFE = unsafe;
            INVOKE_CLEANER = invokeCleaner;
        }

        static void unmap(MappedByteBuffer mapping) {
            if (mapping == null || INVOKE_CLEANER == null) {
                return;
            }
            try {
                INVOKE_CLEANER.invoke(UNSAFE, mapping);
            } catch (ReflectiveOperationException e) {
                // As above: the garbage collector unmaps it later.
            }
        }
    }
}
