package org.flinkaccelerator.sidecar;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * The fork server of one interpreter in this JVM ({@code python -m accelerator.sidecar.fork_server};
 * its docstring has the protocol). It imports the sidecar's libraries once and forks every sidecar
 * from itself, which saves each sidecar the interpreter's and the libraries' start-up (about half a
 * CPU-second; a TaskManager starts one sidecar per accelerated subtask, at every job start and
 * restart).
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
    private static final Map<String, SidecarForkServer> SERVERS = new HashMap<>();
    private static final ExecutorService STARTER = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "accelerator-fork-server-starter");
        thread.setDaemon(true);
        return thread;
    });

    private final String python;
    private final Process process;
    private final SidecarOutput output;
    private final Writer requests;
    private final AtomicLong lastRequest = new AtomicLong();
    private final CompletableFuture<Void> ready = new CompletableFuture<>();
    private final Map<Long, CompletableFuture<ForkedSidecar>> pendingForks = new ConcurrentHashMap<>();
    private final Map<Long, ForkedSidecar> sidecars = new ConcurrentHashMap<>();
    private volatile boolean gone;

    private SidecarForkServer(String python, Process process) {
        this.python = python;
        this.process = process;
        this.output = new SidecarOutput("sidecar fork server " + process.pid());
        this.requests = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    }

    /**
     * Forks one sidecar of {@code python} with the arguments of {@code python -m accelerator.sidecar}
     * (the auth token travels apart, over the server's stdin); a problem with the interpreter or its
     * package is a {@link SidecarSetupException}.
     */
    static ForkedSidecar fork(String python, List<String> args, String token, Duration timeout)
            throws InterruptedException {
        return of(python, timeout).forkOne(args, token, timeout);
    }

    private static synchronized SidecarForkServer of(String python, Duration timeout) throws InterruptedException {
        SidecarForkServer server = SERVERS.get(python);
        if (server != null && !server.gone) {
            return server;
        }
        try {
            server = STARTER.submit(() -> start(python)).get();
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause()
                    : new SidecarException("Cannot start the sidecar fork server: " + e.getCause(), e.getCause());
        }
        server.awaitReady(timeout);
        SERVERS.put(python, server);
        return server;
    }

    private static SidecarForkServer start(String python) {
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

    private void awaitReady(Duration timeout) throws InterruptedException {
        try {
            ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            LOG.info("Sidecar fork server pid {} ready: accelerator.python.executable={}", process.pid(), python);
        } catch (ExecutionException e) {
            throw SidecarLauncher.exitedWhileStarting(python, process.waitFor(), output.tail(Duration.ofSeconds(2)));
        } catch (TimeoutException e) {
            process.destroyForcibly();
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server did not start within "
                    + timeout.toSeconds() + " s", output.tail(Duration.ZERO), null);
        }
    }

    private ForkedSidecar forkOne(List<String> args, String token, Duration timeout) throws InterruptedException {
        long id = lastRequest.incrementAndGet();
        CompletableFuture<ForkedSidecar> forked = new CompletableFuture<>();
        pendingForks.put(id, forked);
        Map<String, Object> request = new HashMap<>();
        request.put("fork", id);
        request.put("args", args);
        request.put("token", token);
        send(request);
        try {
            return forked.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server (pid " + process.pid()
                    + ") could not fork a sidecar: " + e.getCause().getMessage(), output.tail(Duration.ZERO), null);
        } catch (TimeoutException e) {
            pendingForks.remove(id);
            throw SidecarLauncher.setupFailure(python, "its sidecar fork server (pid " + process.pid()
                    + ") did not fork a sidecar within " + timeout.toSeconds() + " s", output.tail(Duration.ZERO), null);
        }
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
        } else if (event.has("forked")) {
            ForkedSidecar sidecar = new ForkedSidecar(this, event.get("pid").asLong());
            sidecars.put(sidecar.pid(), sidecar); // before its first output line is read
            complete(event.get("forked").asLong(), sidecar, null);
        } else if (event.has("failed")) {
            complete(event.get("failed").asLong(), null, event.get("error").asText());
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
