package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.configuration.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import py4j.GatewayServer;
import py4j.Py4JException;

/**
 * One running Python sidecar and its transport: the py4j gateway for control calls and the two
 * shared-memory regions for batches. It supervises the process: a sidecar that died fails the next
 * call with its exit status and last output; one that does not answer within the call timeout is
 * killed and fails the call the same way. After a failure every later call fails at once.
 *
 * <p>Calls are serialized (one request and one response region). {@link #close()} may come from
 * another thread (task cancellation) and never waits for a call in flight.
 *
 * <p>The sidecar is forked by the JVM's {@link SidecarForkServer}, which reaps it and relays its
 * exit code and output (or, while a server is being retired, started by the JVM directly); it
 * exits when the JVM is gone (it watches the JVM's pid, and its parent, the fork server or the
 * JVM, exits with the JVM).
 */
public final class SidecarProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarProcess.class);
    private static final Duration EXIT_GRACE = Duration.ofSeconds(5);
    private static final Duration DEATH_WAIT = Duration.ofSeconds(1);
    private static final Duration DRAIN = Duration.ofSeconds(1);

    private final SidecarSettings settings;
    private final Process process;
    private final GatewayServer gateway;
    private final SidecarRendezvous.Attachment attachment;
    private final SidecarControl control;
    private final SharedRegion requests;
    private final SharedRegion responses;
    private final SharedMemoryBudget budget;
    private final SidecarOutput output;
    private final ReentrantLock calls = new ReentrantLock();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile SidecarException failure;
    private long lastSequence;

    private final String authToken;

    SidecarProcess(SidecarSettings settings, Process process, GatewayServer gateway,
            SidecarRendezvous.Attachment attachment, SharedRegion requests, SharedRegion responses,
            SharedMemoryBudget budget, SidecarOutput output, String authToken) {
        this.settings = settings;
        this.authToken = authToken;
        this.process = process;
        this.gateway = gateway;
        this.attachment = attachment;
        this.control = attachment.control();
        this.requests = requests;
        this.responses = responses;
        this.budget = budget;
        budget.addBase(requests.initialSize() + responses.initialSize());
        this.output = output;
        process.onExit().thenRun(this::reportUnexpectedExit);
    }

    /**
     * Starts a sidecar whose regions grow within {@code budget} (the TaskManager's); a problem with
     * the interpreter or its package is a {@link SidecarSetupException}.
     */
    public static SidecarProcess start(SidecarSettings settings, SharedMemoryBudget budget) {
        return SidecarLauncher.launch(settings, budget);
    }

    /** Starts a sidecar within this JVM's budget as an unconfigured TaskManager has it. */
    public static SidecarProcess start(SidecarSettings settings) {
        return start(settings, SharedMemoryBudget.ofTaskManager(new Configuration()));
    }

    public long pid() {
        return process.pid();
    }

    String acceleratorVersion() {
        return attachment.acceleratorVersion();
    }

    int protocolVersion() {
        return call("protocolVersion()", control::protocolVersion);
    }

    /**
     * Asks the sidecar for a trivial answer: a sidecar that died or hangs fails it like any call
     * (a hung one after the call timeout, and is killed).
     */
    public void checkAnswers() {
        calls.lock();
        try {
            call("a liveness check", control::protocolVersion);
        } finally {
            calls.unlock();
        }
    }

    /** Opens a stage; a descriptor the sidecar refuses is a {@link StageFailedException}. */
    long openStage(String descriptorJson) {
        calls.lock();
        try {
            long stageId = call("open(descriptor)", () -> control.open(descriptorJson));
            if (stageId == SidecarControl.FAILED) {
                throw StageFailedException.fromReply(call("lastError()", control::lastError));
            }
            return stageId;
        } finally {
            calls.unlock();
        }
    }

    /**
     * Sends one batch through stage {@code stageId}; the caller owns the returned roots (one per
     * answer stream). A batch or an answer larger than its region's initial size first takes a
     * grant of the growth from the TaskManager's {@link SharedMemoryBudget}, waiting for it in this
     * thread outside any control call (the call timeout does not run meanwhile). Both regions are
     * back at their initial size, and the grants released, before this returns: the request
     * region's right after the sidecar answers, the response region's once its answer is copied
     * out. So a call never waits while it holds a grant (docs/architecture.md, "Transport").
     */
    List<VectorSchemaRoot> process(long stageId, VectorSchemaRoot batch, BufferAllocator allocator) {
        calls.lock();
        try {
            long sequence = ++lastSequence;
            String what = "process(stage " + stageId + ", batch " + sequence + ")";
            long answer;
            long requestSize = regionSizeFor(sequence, batch);
            try (SharedMemoryBudget.Grant grant = acquire(requestSize - requests.initialSize(), "batch " + sequence)) {
                try {
                    requests.resize(requestSize);
                    requests.write(sequence, batch);
                } catch (IOException e) {
                    throw new SidecarException("Cannot write batch " + sequence + " (" + batch.getRowCount()
                            + " rows) to the request region " + requests.path() + ": " + e, e);
                }
                try {
                    answer = call(what, () -> control.process(stageId, sequence));
                } finally {
                    shrink(requests, grant);
                }
            }
            if (answer == SidecarControl.FAILED) {
                throw StageFailedException.fromReply(call("lastError()", control::lastError));
            }
            if (answer >= 0) {
                return readAnswer(sequence, allocator);
            }
            long responseSize = -answer;
            try (SharedMemoryBudget.Grant grant = acquire(responseSize - responses.initialSize(),
                    "the answer to batch " + sequence)) {
                try {
                    long length = call("writeKeptAnswer(batch " + sequence + ", " + responseSize + " bytes)",
                            () -> control.writeKeptAnswer(sequence, responseSize));
                    if (length == SidecarControl.FAILED) {
                        throw StageFailedException.fromReply(call("lastError()", control::lastError));
                    }
                    return readAnswer(sequence, allocator);
                } finally {
                    if (failure == null && !closed.get()) {
                        call("shrinkResponses()", () -> {
                            control.shrinkResponses();
                            return null;
                        });
                    }
                }
            }
        } finally {
            calls.unlock();
        }
    }

    private long regionSizeFor(long sequence, VectorSchemaRoot batch) {
        try {
            return SharedRegion.sizeFor(batch, requests.initialSize());
        } catch (IOException e) {
            throw new SidecarException("Cannot measure batch " + sequence + " (" + batch.getRowCount() + " rows) for the"
                    + " request region " + requests.path() + ": " + e, e);
        }
    }

    private SharedMemoryBudget.Grant acquire(long bytes, String forWhat) {
        try {
            return budget.acquire(bytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SidecarException("Interrupted while " + forWhat + " of the " + describe() + " waited for "
                    + bytes + " bytes of the TaskManager's shared-memory budget (accelerator.shared-memory.budget)", e);
        }
    }

    /** The request region back at its initial size once the sidecar is done with the batch. */
    private void shrink(SharedRegion region, SharedMemoryBudget.Grant grant) {
        if (grant.bytes() == 0) {
            return;
        }
        try {
            region.resize(region.initialSize());
        } catch (IOException e) {
            throw new SidecarException("Cannot shrink the request region " + region.path() + " back to "
                    + region.initialSize() + " bytes: " + e, e);
        }
    }

    private List<VectorSchemaRoot> readAnswer(long sequence, BufferAllocator allocator) {
        try {
            return responses.read(sequence, allocator);
        } catch (IOException e) {
            throw new SidecarException("Cannot read the sidecar's answer to batch " + sequence
                    + " from the response region " + responses.path() + ": " + e, e);
        }
    }

    private boolean exitsWithin(Duration wait) {
        try {
            return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Closes a stage; nothing to do once the sidecar is gone. */
    void closeStage(long stageId) {
        if (closed.get() || failure != null || !process.isAlive()) {
            return;
        }
        calls.lock();
        try {
            call("close(stage " + stageId + ")", () -> {
                control.close(stageId);
                return null;
            });
        } catch (SidecarException e) {
            if (!exitsWithin(Duration.ofSeconds(5))) {
                throw e;
            }
            // It died just before (the JVM had not reaped it yet): its stages are gone with it.
        } finally {
            calls.unlock();
        }
    }

    Path requestRegion() {
        return requests.path();
    }

    Path responseRegion() {
        return responses.path();
    }

    int gatewayPort() {
        return gateway.getListeningPort();
    }

    /** The secret both py4j peers require of every connection (tests show that it is what lets a call in). */
    String authToken() {
        return authToken;
    }

    int callbackPort() {
        return attachment.callbackPort();
    }

    private <T> T call(String what, Supplier<T> call) {
        SidecarException failed = failure;
        if (failed != null) {
            throw new SidecarException(failed.getMessage(), failed);
        }
        if (closed.get()) {
            throw new SidecarException("The " + describe() + " is closed; " + what + " was not sent");
        }
        if (!process.isAlive()) {
            throw fail(died(what, null));
        }
        try {
            return call.get();
        } catch (Py4JException e) {
            if (closed.get()) {
                throw new SidecarException("The " + describe() + " was closed during " + what, e);
            }
            if (causedByTimeout(e)) {
                throw kill(new SidecarException("The " + describe() + " did not answer " + what + " within "
                        + settings.callTimeout().toMillis() + " ms and was killed (if batches legitimately take"
                        + " this long, raise accelerator.sidecar.timeout). Its last output:"
                        + output.tail(Duration.ZERO), e));
            }
            if (exited(DEATH_WAIT)) {
                throw fail(died(what, e));
            }
            throw kill(new SidecarException("Lost the connection to the " + describe() + " during " + what
                    + " (" + e.getMessage() + "); it was killed. Its last output:" + output.tail(Duration.ZERO), e));
        }
    }

    private SidecarException died(String what, Throwable cause) {
        return new SidecarException("The " + describe() + " died before answering " + what + ": " + exitStatus()
                + ". Its last output:" + output.tail(DRAIN), cause);
    }

    private SidecarException fail(SidecarException e) {
        failure = e;
        return e;
    }

    private SidecarException kill(SidecarException e) {
        fail(e);
        process.destroyForcibly();
        return e;
    }

    /** "Python sidecar (pid N)", for messages. */
    private String describe() {
        return "Python sidecar (pid " + process.pid() + ")";
    }

    private String exitStatus() {
        int code = process.exitValue();
        if (code <= 128) {
            return "exit code " + code;
        }
        int signal = code - 128;
        String hint = signal == 9 ? " (SIGKILL: killed by someone, or by the kernel when out of memory)"
                : signal == 15 ? " (SIGTERM)" : signal == 11 ? " (SIGSEGV: crashed in native code)"
                : signal == 6 ? " (SIGABRT: aborted in native code)" : "";
        return "killed by signal " + signal + hint;
    }

    private static boolean causedByTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private boolean exited(Duration wait) {
        try {
            return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    private void reportUnexpectedExit() {
        if (!closed.get() && failure == null) {
            LOG.error("The {} exited unexpectedly ({}); the next call fails the task. Its last output:{}", describe(),
                    exitStatus(), output.tail(DRAIN));
        }
    }

    /**
     * Stops the sidecar (asks it to shut down, then SIGTERM, then SIGKILL), stops the gateway and
     * removes both region files. Safe to call more than once and from any thread.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            stopProcess();
        } finally {
            gateway.shutdown();
            closeRegions();
        }
        LOG.info("The {} stopped ({})", describe(), process.isAlive() ? "still running!" : exitStatus());
    }

    private void stopProcess() {
        if (askToShutDown() && exited(EXIT_GRACE)) {
            return;
        }
        if (process.isAlive()) {
            process.destroy();
            if (!exited(EXIT_GRACE)) {
                LOG.warn("The {} ignored SIGTERM for {} s; killing it", describe(), EXIT_GRACE.toSeconds());
                process.destroyForcibly();
                exited(EXIT_GRACE);
            }
        }
    }

    /** Sends shutdown() unless a call is in flight (then SIGTERM is quicker); true if it was sent. */
    private boolean askToShutDown() {
        if (!process.isAlive() || !calls.tryLock()) {
            return false;
        }
        try {
            control.shutdown();
            return true;
        } catch (Py4JException e) {
            LOG.debug("The {} did not acknowledge shutdown: {}", describe(), e.toString());
            return false;
        } finally {
            calls.unlock();
        }
    }

    private void closeRegions() {
        budget.removeBase(requests.initialSize() + responses.initialSize());
        try {
            requests.close();
            responses.close();
            Files.deleteIfExists(responses.path());
        } catch (IOException e) {
            LOG.warn("Could not remove the shared-memory regions of the {}: {}", describe(), e.toString());
        }
    }
}
