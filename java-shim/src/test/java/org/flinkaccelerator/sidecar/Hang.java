package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** Makes a process hang (SIGSTOP) for the hung-sidecar tests. */
public final class Hang {
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    private Hang() {}

    /**
     * Sends SIGSTOP and returns once the kernel shows the process stopped: the signal is delivered
     * asynchronously, and a call made before it lands can still be answered on a loaded machine.
     */
    public static void stop(long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-STOP", String.valueOf(pid)).start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -STOP " + pid + " failed with exit code " + kill.exitValue());
        }
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        while (state(pid) != 'T') {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("process " + pid + " is not stopped " + STOP_WAIT + " after SIGSTOP");
            }
            Thread.sleep(5);
        }
    }

    /** The state letter of /proc/<pid>/stat (the field after the parenthesised command name). */
    private static char state(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"), StandardCharsets.US_ASCII);
        return stat.charAt(stat.lastIndexOf(')') + 2);
    }
}
