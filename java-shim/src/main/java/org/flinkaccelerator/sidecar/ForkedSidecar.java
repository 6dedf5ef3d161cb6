package org.flinkaccelerator.sidecar;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A sidecar the fork server forked, seen as a {@link Process}: the fork server reaps it and
 * reports its exit code (128 + signal when killed, as for a process the JVM started), relays its
 * output into {@link #output()} and delivers the signals of {@link #destroy()} and
 * {@link #destroyForcibly()} only while it has not reaped it, so a reused pid is never hit.
 */
final class ForkedSidecar extends Process {
    private static final int SIGTERM = 15;
    private static final int SIGKILL = 9;

    private final SidecarForkServer server;
    private final long pid;
    private final SidecarOutput output;
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();

    ForkedSidecar(SidecarForkServer server, long pid) {
        this.server = server;
        this.pid = pid;
        this.output = new SidecarOutput("sidecar " + pid);
    }

    SidecarOutput output() {
        return output;
    }

    /** From the fork server: the sidecar was reaped, its output read to the end. */
    void exited(int code) {
        output.end();
        exit.complete(code);
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public OutputStream getOutputStream() {
        return OutputStream.nullOutputStream();
    }

    /** Empty: the output arrives line by line in {@link #output()}. */
    @Override
    public InputStream getInputStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            return exit.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    @Override
    public int exitValue() {
        Integer code = exit.getNow(null);
        if (code == null) {
            throw new IllegalThreadStateException("sidecar " + pid + " has not exited");
        }
        return code;
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit.thenApply(code -> this);
    }

    @Override
    public boolean supportsNormalTermination() {
        return true;
    }

    @Override
    public void destroy() {
        if (isAlive()) {
            server.signal(pid, SIGTERM);
        }
    }

    @Override
    public Process destroyForcibly() {
        if (isAlive()) {
            server.signal(pid, SIGKILL);
        }
        return this;
    }
}
