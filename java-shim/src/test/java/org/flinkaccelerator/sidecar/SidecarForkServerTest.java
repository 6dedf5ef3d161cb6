package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM (a TaskManager) runs at most one sidecar fork server, whatever interpreters its jobs name,
 * and none outlives it: the real fork server and sidecars of the test interpreter, which a wrapper
 * script in a temporary directory makes a second accelerator.python.executable.
 */
class SidecarForkServerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void anotherInterpreterRetiresTheServerOnceItsSidecarsHaveExitedAndNeverRunsASecondOne(@TempDir Path dir)
            throws Exception {
        String other = TestPython.wrapper(dir.resolve("python"), "", "").toString();
        SidecarProcess first = SidecarProcess.start(TestPython.settings());
        long server = parentOf(first.pid());
        assertEquals(List.of(server), forkServers(ProcessHandle.current().pid()));
        try (SidecarProcess direct = SidecarProcess.start(TestPython.settings(other))) {
            // The server still has a running sidecar: it is retired, not stopped, and this one starts directly.
            assertEquals(ProcessHandle.current().pid(), parentOf(direct.pid()));
            assertEquals(List.of(server), forkServers(ProcessHandle.current().pid()));
            assertEquals(SidecarControl.PROTOCOL_VERSION, first.protocolVersion());
            assertEquals(SidecarControl.PROTOCOL_VERSION, direct.protocolVersion());

            first.close();
            awaitGone(server, "the retired fork server after its last sidecar closed");
            assertEquals(List.of(), forkServers(ProcessHandle.current().pid()));
            try (SidecarProcess forked = SidecarProcess.start(TestPython.settings(other))) {
                long next = parentOf(forked.pid());
                assertEquals(List.of(next), forkServers(ProcessHandle.current().pid()));
                assertEquals(SidecarControl.PROTOCOL_VERSION, forked.protocolVersion());
            }
        }
        // Back to the first interpreter: the idle server of the other one is stopped before a new one starts.
        try (SidecarProcess again = SidecarProcess.start(TestPython.settings())) {
            assertEquals(List.of(parentOf(again.pid())), forkServers(ProcessHandle.current().pid()));
        }
    }

    @Test
    void whenTheJvmExitsItsForkServerAndEverySidecarAreGone(@TempDir Path dir) throws Exception {
        String other = TestPython.wrapper(dir.resolve("python"), "", "").toString();
        String java = ProcessHandle.current().info().command().orElseThrow();
        Path printed = dir.resolve("stand-in.out");
        Process jvm = new ProcessBuilder(java, "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), TaskManagerStandIn.class.getName(),
                Path.of(TestPython.path()).toAbsolutePath().toString(), other)
                .redirectErrorStream(true).redirectOutput(printed.toFile()).start();
        if (!jvm.waitFor(2 * WAIT.toSeconds(), TimeUnit.SECONDS)) {
            jvm.destroyForcibly().waitFor();
        }
        List<Long> pids = new ArrayList<>();
        for (String line : Files.readAllLines(printed)) {
            if (line.startsWith("pids ")) {
                Arrays.stream(line.substring(5).split(" ")).map(Long::valueOf).forEach(pids::add);
            }
        }
        assertEquals(3, pids.size(), "the stand-in JVM printed: " + Files.readString(printed));
        for (long pid : pids) {
            awaitGone(pid, "process " + pid + " of the exited JVM " + jvm.pid() + " (server, forked, direct sidecar)");
        }
        try (Stream<Path> files = Files.list(SharedRegion.SHM_DIRECTORY)) {
            List<String> left = files.map(p -> p.getFileName().toString())
                    .filter(name -> Stream.concat(Stream.of(jvm.pid()), pids.stream())
                            .anyMatch(pid -> name.contains("-" + pid + "-")))
                    .toList();
            assertTrue(left.isEmpty(), "left in /dev/shm: " + left);
        }
    }

    /**
     * A JVM that starts a sidecar of each interpreter (one forked, one direct: the server is then
     * retired, not stopped), prints the pids and exits without closing anything, as a TaskManager
     * that stops or dies.
     */
    public static final class TaskManagerStandIn {
        public static void main(String[] interpreters) {
            try {
                SidecarProcess forked = SidecarProcess.start(TestPython.settings(interpreters[0]));
                SidecarProcess direct = SidecarProcess.start(TestPython.settings(interpreters[1]));
                long jvm = ProcessHandle.current().pid();
                List<Long> servers = forkServers(jvm);
                if (parentOf(direct.pid()) != jvm || servers.size() != 1) {
                    throw new IllegalStateException("fork servers " + servers + ", direct sidecar's parent "
                            + parentOf(direct.pid()));
                }
                System.out.println("pids " + servers.get(0) + " " + forked.pid() + " " + direct.pid());
                System.exit(0);
            } catch (Throwable e) {
                e.printStackTrace();
                System.exit(1); // py4j's threads would keep the JVM running
            }
        }
    }

    /** The fork servers among the children of {@code parent}, as /proc shows them. */
    static List<Long> forkServers(long parent) {
        return ProcessHandle.of(parent).orElseThrow().children()
                .filter(p -> p.info().arguments().map(a -> List.of(a).contains("accelerator.sidecar.fork_server"))
                        .orElse(false))
                .map(ProcessHandle::pid)
                .toList();
    }

    private static long parentOf(long pid) {
        return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).orElseThrow().pid();
    }

    private static void awaitGone(long pid, String what) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (running(pid)) {
            if (System.nanoTime() > deadline) {
                assertFalse(running(pid), what + " is still running after " + WAIT.toSeconds() + " s: " + describe(pid));
            }
            Thread.sleep(50);
        }
    }

    /** What /proc says of {@code pid}: its command line, state, parent and where it waits. */
    private static String describe(long pid) {
        Path proc = Path.of("/proc", String.valueOf(pid));
        try {
            String status = Files.readAllLines(proc.resolve("status")).stream()
                    .filter(l -> l.startsWith("State:") || l.startsWith("PPid:") || l.startsWith("Threads:"))
                    .map(String::strip).reduce((a, b) -> a + ", " + b).orElse("");
            return new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8).replace('\0', ' ')
                    + "(" + status + ", wchan " + Files.readString(proc.resolve("wchan")) + ")";
        } catch (IOException e) {
            return "gone (" + e + ")";
        }
    }

    /** Whether {@code pid} runs: a zombie (exited, its parent has not reaped it yet) does not. */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(pid), "stat"), StandardCharsets.US_ASCII);
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException e) {
            return false;
        }
    }
}
