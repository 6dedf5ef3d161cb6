package org.flinkaccelerator.sidecar;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sidecar fork server of this JVM ({@code python -m accelerator.sidecar.fork_server}; its
 * docstring has the protocol). It imports the sidecar's libraries once and forks every sidecar
 * from itself, which saves each sidecar the interpreter's and the libraries' start-up (about half a
 * CPU-second; a TaskManager starts one sidecar per accelerated subtask, at every job start and
 * restart).
 *
 * <p>A TaskManager runs at most one, whatever interpreters its jobs name: a server forks for the
 * {@code accelerator.python.executable} it was started with (compared as written: another path to
 * the same interpreter is another interpreter, as a venv's python and the python it links to are).
 * A sidecar for another one retires it: it forks nothing more and is stopped once its last sidecar
 * has exited (never earlier: they belong to running tasks). Until then sidecars are started by the
 * JVM directly ({@code python -m accelerator.sidecar}, the slower start); the first sidecar after
 * it starts the next server, for its own interpreter, once the old one is reaped.
 *
 * <p>It is started on a thread that lives as long as the JVM, because Linux sends a process its
 * parent-death signal when the thread that started it ends (a task thread ends with its task). It
 * exits when this JVM does (its stdin ends). One that exited is started again at the next fork;
 * the sidecars it had get the parent-death signal and fail their tasks, which Flink restarts.
 */
final class SidecarForkServer {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarForkServer.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SIGTERM = 15;
    private static final Duration EXIT_GRACE = Duration.ofSeconds(10);
    private static final ExecutorService STARTER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "accelerator-fork-server-starter");
        thread.setDaemon(true);
        return thread;
    });
    /** The one server of this JVM, or null; guarded by the class. */
    private static SidecarForkServer current;

    private final String python;
    private final Process process;
    private final SidecarOutput output;
    private final Writer requests;
    private final AtomicLong lastRequest = new AtomicLong();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<ForkedSidecar>> pendingForks = new ConcurrentHashMap<>();
    private final Map<Long, ForkedSidecar> sidecars = new ConcurrentHashMap<>();
    private volatile boolean gone;
    /** Why it forks nothing more (another interpreter was asked for), or null. */
    private volatile String retiredFor;
    private volatile boolean stopping; // set under the lock of requests

    /** A started sidecar and its output (stdout and stderr), however it was started. */
    record Started(Process process, SidecarOutput output) {}

    private SidecarForkServer(String python, Process process) {
        this.python = python;
        this.process = process;
        this.output = new SidecarOutput("sidecar fork server " + process.pid());
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /**
     * Starts one sidecar of {@code python} with the arguments of {@code python -m accelerator.sidecar}
     * (the auth token travels apart, over a stdin): forked by the server, or started directly while
     * a server is being retired. A problem with the interpreter or its package
     * is a {@link SidecarSetupException}.
     */
    static Started start(String python, List<String> args, String token, Duration timeout)
            throws InterruptedException {
        SidecarForkServer server;
        long request = 0;
        synchronized (SidecarForkServer.class) {
            server = serverFor(python, timeout);
            if (server != null) {
                request = server.expectFork(); // before the lock goes: it cannot be retired as idle meanwhile
            }
        }
        if (server == null) {
            return startDirectly(python, args, token);
        }
        ForkedSidecar sidecar = server.forkOne(request, args, token, timeout);
        return new Started(sidecar, sidecar.output());
    }

    /** The server to fork {@code python}'s sidecar, started if need be; null to start it directly. */
    private static SidecarForkServer serverFor(String python, Duration timeout) throws InterruptedException {
        SidecarForkServer server = current;
        if (server != null && !server.gone && server.retiredFor == null && !server.python.equals(python)) {
            server.retire("a job asks for a sidecar of accelerator.python.executable=" + python);
        }
        if (server != null && !server.gone && server.retiredFor != null && !server.idle()) {
            return null;
        }
        if (server != null && (server.gone || server.retiredFor != null)) {
            server.stopAndReap();
            current = server = null;
        }
        if (server == null) {
            server = onStarter(() -> launch(python));
            server.awaitReady(timeout);
            current = server;
        }
        return server;
    }

    private static <T> T onStarter(Callable<T> task) throws InterruptedException {
        try {
            return STARTER.submit(task).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
                    : new SidecarException("Cannot start a sidecar process: " + e.getCause(), e.getCause());
        }
    }

    private static SidecarForkServer launch(String python) {
        ProcessBuilder builder = new ProcessBuilder(python, "-m", "accelerator.sidecar.fork_server")
                .redirectErrorStream(true);
        // No BLAS thread pool in a process that forks (the sidecars do no linear algebra).
        builder.environment().putIfAbsent("OPENBLAS_NUM_THREADS", "1");
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            throw SidecarLauncher.setupFailure(python, "cannot run it (" + e.getMessage() + ")", "", e);
        }
        SidecarForkServer server = new SidecarForkServer(python, process);
        Thread reader = new Thread(server::readEvents, "accelerator-fork-server-" + process.pid());
        reader.setDaemon(true);
        reader.start();
        return server;
    }

    /**
     * A sidecar the JVM starts itself, its token on its stdin, while the server is being retired;
     * on the starter thread, for the parent-death signal's sake as the server.
     */
    private static Started startDirectly(String python, List<String> args, String token)
            throws InterruptedException {
        List<String> command = new ArrayList<>(List.of(python, "-m", "accelerator.sidecar"));
        command.addAll(args);
        Process process = onStarter(() -> {
            try {
                return new ProcessBuilder(command).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw SidecarLauncher.setupFailure(python, "cannot run it (" + e.getMessage() + ")", "", e);
            }
        });
        SidecarOutput output = new SidecarOutput("sidecar " + process.pid());
        Thread reader = new Thread(() -> follow(process, output), "accelerator-sidecar-" + process.pid() + "-output");
        reader.setDaemon(true);
        reader.start();
        try (OutputStream stdin = process.getOutputStream()) {
            stdin.write((token + "\n").getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // It exited before reading the token; the launcher reports why from its output.
        }
        return new Started(process, output);
    }

    private static void follow(Process process, SidecarOutput output) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                output.line(line);
            }
        } catch (IOException e) {
            LOG.debug("The output of sidecar {} ended: {}", process.pid(), e.toString());
        } finally {
            output.end();
        }
    }

    /** Forks nothing more; stops once its last sidecar has exited (now, if it has none). */
    private void retire(String reason) {
        retiredFor = reason;
        LOG.info("Retiring the sidecar fork server pid {} (accelerator.python.executable={}): {}, and a TaskManager"
                + " runs one fork server. It forks no more sidecars and stops once its {} running sidecar(s) have"
                + " exited; until then sidecars start without a fork server (about half a CPU-second more each).",
                process.pid(), python, reason, sidecars.size());
        stopIfRetiredAndIdle();
    }

    private boolean idle() {
        return sidecars.isEmpty() && pendingForks.isEmpty();
    }

    /** A retired server with no sidecar left is stopped. */
    private void stopIfRetiredAndIdle() {
        if (retiredFor != null && idle() && endRequests()) {
            LOG.info("Stopping the retired sidecar fork server pid {} (accelerator.python.executable={}): its last"
                    + " sidecar has exited. It was retired because {}.", process.pid(), python, retiredFor);
        }
    }

    /** Ends the server's stdin, on which it exits; true the first time. */
    private boolean endRequests() {
        synchronized (requests) {
            if (stopping) {
                return false;
            }
            stopping = true;
            try {
                requests.close();
            } catch (IOException e) {
                LOG.debug("Closing the stdin of the sidecar fork server {}: {}", process.pid(), e.toString());
            }
            return true;
        }
    }

    /** Stops it and waits until it is reaped (killing it if it does not exit), so no two servers ever run. */
    private void stopAndReap() throws InterruptedException {
        stopIfRetiredAndIdle();
        endRequests();
        if (!process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            LOG.warn("The sidecar fork server pid {} did not exit within {} s; killing it", process.pid(),
                    EXIT_GRACE.toSeconds());
            process.destroyForcibly().waitFor();
        }
    }

    private void awaitReady(Duration timeout) throws InterruptedException {
        try {
            ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Sidecar fork server pid {} ready: accelerator.python.executable={}", process.pid(), python);
        } catch (ExecutionException e) {
            throw SidecarLauncher.exitedWhileStarting(python, process.waitFor(), output.tail(Duration.ofSeconds(2)));
        } catch (TimeoutException e) {
            process.destroyForcibly().waitFor();
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server did not start within "
                    + timeout.toSeconds() + " s", output.tail(Duration.ZERO), null);
        }
    }

    private long expectFork() {
        long id = lastRequest.incrementAndGet();
        pendingForks.put(id, new CompletableFuture<>());
        return id;
    }

    private ForkedSidecar forkOne(long id, List<String> args, String token, Duration timeout)
            throws InterruptedException {
        CompletableFuture<ForkedSidecar> forked = pendingForks.get(id);
        Map<String, Object> request = new HashMap<>();
        request.put("fork", id);
        request.put("args", args);
        request.put("token", token);
        try {
            send(request);
        } catch (RuntimeException e) {
            forgetFork(id);
            throw e;
        }
        try {
            return forked.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server (pid " + process.pid()
                    + ") could not fork a sidecar: " + e.getCause().getMessage(), output.tail(Duration.ZERO), null);
        } catch (TimeoutException e) {
            forgetFork(id);
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server (pid " + process.pid()
                    + ") did not fork a sidecar within " + timeout.toSeconds() + " s", output.tail(Duration.ZERO), null);
        }
    }

    private void forgetFork(long id) {
        pendingForks.remove(id);
        stopIfRetiredAndIdle();
    }

    /** Delivers a signal to a sidecar the server has not reaped yet. */
    void signal(long pid, int signum) {
        if (gone) {
            ProcessHandle.of(pid).ifPresent(handle -> {
                if (signum == SIGTERM) {
                    handle.destroy();
                } else {
                    handle.destroyForcibly();
                }
            });
            return;
        }
        if (stopping) { // its stdin has ended: it stops its sidecars itself
            return;
        }
        Map<String, Object> request = new HashMap<>();
        request.put("signal", pid);
        request.put("signum", signum);
        send(request);
    }

    private void send(Map<String, Object> request) {
        try {
            String line = JSON.writeValueAsString(request) + "\n";
            synchronized (requests) {
                requests.write(line);
                requests.flush();
            }
        } catch (IOException e) {
            throw new SidecarException("Cannot reach the sidecar fork server (pid " + process.pid() + "): " + e
                    + ". Its last output:" + output.tail(Duration.ofSeconds(1)), e);
        }
    }

    /** The server's stdout: protocol events (JSON objects), or its own log lines. */
    private void readEvents() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("{\"")) {
                    handle(JSON.readTree(line));
                } else {
                    output.line(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.error("Lost the sidecar fork server (pid {}): {}", process.pid(), e.toString());
        } finally {
            serverGone();
        }
    }

    private void handle(JsonNode event) {
        if (event.has("output")) {
            ForkedSidecar sidecar = sidecars.get(event.get("output").asLong());
            if (sidecar != null) {
                sidecar.output().line(event.get("line").asText());
            }
        } else if (event.has("exited")) {
            ForkedSidecar sidecar = sidecars.remove(event.get("exited").asLong());
            if (sidecar != null) {
                sidecar.exited(event.get("code").asInt());
            }
            stopIfRetiredAndIdle();
        } else if (event.has("forked")) {
            ForkedSidecar sidecar = new ForkedSidecar(this, event.get("pid").asLong());
            sidecars.put(sidecar.pid(), sidecar); // before its first output line is read
            complete(event.get("forked").asLong(), sidecar, null);
        } else if (event.has("failed")) {
            complete(event.get("failed").asLong(), null, event.get("error").asText());
            stopIfRetiredAndIdle();
        } else if (event.has("ready")) {
            ready.complete(null);
        }
    }

    private void complete(long request, ForkedSidecar sidecar, String error) {
        CompletableFuture<ForkedSidecar> pending = pendingForks.remove(request);
        if (pending == null) {
            if (sidecar != null) { // its launcher gave up waiting: nobody will stop it
                sidecar.destroyForcibly();
            }
        } else if (error == null) {
            pending.complete(sidecar);
        } else {
            pending.completeExceptionally(new IllegalStateException(error));
        }
    }

    /** The server exited: pending forks fail; its sidecars got the parent-death signal (SIGTERM). */
    private void serverGone() {
        gone = true;
        output.end();
        ready.completeExceptionally(new IllegalStateException("the fork server exited"));
        pendingForks.values().forEach(f -> f.completeExceptionally(new IllegalStateException(
                "the fork server exited")));
        if (!sidecars.isEmpty()) {
            LOG.error("The sidecar fork server (pid {}) exited with its sidecars {} still running; they get SIGTERM"
                    + " and their tasks fail. Its last output:{}", process.pid(), sidecars.keySet(),
                    output.tail(Duration.ZERO));
        }
        for (ForkedSidecar sidecar : sidecars.values()) {
            ProcessHandle.of(sidecar.pid()).map(ProcessHandle::onExit)
                    .orElse(CompletableFuture.completedFuture(null))
                    .thenRun(() -> sidecar.exited(128 + SIGTERM));
        }
    }
}
