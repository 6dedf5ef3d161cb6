package org.flinkaccelerator.sidecar;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drains the sidecar's output (stdout and stderr merged) on a daemon thread: every line goes to
 * the TaskManager log, and the last lines are kept so that an error about a dead or hung sidecar
 * can say what it printed last.
 */
final class SidecarOutput implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarOutput.class);
    static final int TAIL_LINES = 30;

    private final Process process;
    private final String prefix;
    private final Deque<String> tail = new ArrayDeque<>(TAIL_LINES);
    private final Thread thread;

    private SidecarOutput(Process process) {
        this.process = process;
        this.prefix = "sidecar " + process.pid() + ": ";
        this.thread = new Thread(this, "accelerator-sidecar-" + process.pid() + "-output");
        thread.setDaemon(true);
    }

    static SidecarOutput follow(Process process) {
        SidecarOutput output = new SidecarOutput(process);
        output.thread.start();
        return output;
    }

    @Override
    public void run() {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("WARNING ") || line.startsWith("ERROR ") || line.startsWith("CRITICAL ")) {
                    LOG.warn("{}{}", prefix, line);
                } else {
                    LOG.info("{}{}", prefix, line);
                }
                synchronized (tail) {
                    if (tail.size() == TAIL_LINES) {
                        tail.removeFirst();
                    }
                    tail.addLast(line);
                }
            }
        } catch (IOException e) {
            LOG.debug("{}output closed: {}", prefix, e.toString());
        }
    }

    /** The last lines, oldest first, each on its own indented line; waits up to {@code drain} for
     * the rest of the output of a process that has exited. */
    String tail(Duration drain) {
        try {
            if (!process.isAlive()) {
                thread.join(drain.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (tail) {
            return tail.isEmpty() ? " (it printed nothing)" : "\n    " + String.join("\n    ", tail);
        }
    }
}
