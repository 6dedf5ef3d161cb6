package org.flinkaccelerator.sidecar;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The output of a sidecar (or of the fork server), stdout and stderr merged, line by line as the
 * fork server relays it: every line goes to the TaskManager log, and the last lines are kept so
 * that an error about a dead or hung sidecar can say what it printed last.
 */
final class SidecarOutput {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarOutput.class);
    static final int TAIL_LINES = 30;

    private final String prefix;
    private final Deque<String> tail = new ArrayDeque<>(TAIL_LINES);
    private final CountDownLatch ended = new CountDownLatch(1);

    /** {@code source}: what printed it, for the log ("sidecar 123"). */
    SidecarOutput(String source) {
        this.prefix = source + ": ";
    }

    void line(String line) {
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

    /** No more lines will come (the process exited and its output was read to the end). */
    void end() {
        ended.countDown();
    }

    /** The last lines, oldest first, each on its own indented line; waits up to {@code drain} for
     * the rest of the output (pass a drain only for a process that exited). */
    String tail(Duration drain) {
        try {
            ended.await(drain.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (tail) {
            return tail.isEmpty() ? " (it printed nothing)" : "\n    " + String.join("\n    ", tail);
        }
    }
}
