package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.flinkaccelerator.BuildInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java side against the real Python sidecar, forked by the real fork server. */
class SidecarProcessTest {
    private static final String IDENTITY = "{\"protocol\": 1, \"kind\": \"identity\", \"name\": \"identity-test\"}";

    private final BufferAllocator allocator = new RootAllocator();

    @AfterEach
    void allBuffersReleased() {
        allocator.close();
    }

    @Test
    void everyStageContractTypeRoundTripsThroughTheIdentityStage() {
        try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
                SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator)) {
            for (int rows : List.of(100, 0, 5_000)) {
                try (VectorSchemaRoot sent = Batches.everyType(allocator, rows);
                        VectorSchemaRoot received = stage.process(sent)) {
                    assertEquals(rows, received.getRowCount());
                    assertTrue(sent.equals(received), "batch of " + rows + " rows changed: "
                            + received.contentToTSVString());
                }
            }
        }
    }

    @Test
    void batchesLargerThanTheRegionsMakeThemGrow() {
        try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
                SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator)) {
            for (int rows : List.of(1_000, 65_536, 10)) {
                try (VectorSchemaRoot sent = Batches.kafkaRecords(allocator, rows, 200);
                        VectorSchemaRoot received = stage.process(sent)) {
                    assertTrue(sent.equals(received), "batch of " + rows + " Kafka records changed");
                }
            }
        }
    }

    @Test
    void stageErrorArrivesAsAnExceptionWithThePythonReasonAndTheSidecarCarriesOn() {
        String descriptor = "{\"protocol\": 1, \"kind\": \"identity\", \"name\": \"q-strict\","
                + " \"input\": {\"fields\": [{\"name\": \"value\", \"type\": \"VARBINARY(2147483647)\"}]}}";
        try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
                SidecarStage stage = SidecarStage.open(sidecar, descriptor, allocator);
                VectorSchemaRoot wrongColumns = Batches.kafkaRecords(allocator, 10, 20)) {
            StageFailedException e = assertThrows(StageFailedException.class, () -> stage.process(wrongColumns));
            assertEquals("process", e.call());
            assertEquals("q-strict", e.stageName());
            assertEquals("ValueError", e.pythonError());
            assertTrue(e.reason().contains("are not the stage's input fields ['value']"), e.reason());
            assertFalse(e.pythonTraceback().isEmpty());
            assertTrue(e.getMessage().startsWith("Accelerated stage 'q-strict' (id "), e.getMessage());
            assertTrue(e.getMessage().contains("failed in process of batch 1: ValueError: batch columns"),
                    e.getMessage());

            wrongColumns.getVector(1).close();
            wrongColumns.getVector(2).close();
            try (VectorSchemaRoot onlyValue = new VectorSchemaRoot(List.of(wrongColumns.getVector(0)));
                    VectorSchemaRoot received = stage.process(onlyValue)) {
                assertEquals(10, received.getRowCount());
            }
        }
    }

    @Test
    void descriptorTheSidecarCannotRunIsRefusedAtOpen() {
        try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings())) {
            StageFailedException e = assertThrows(StageFailedException.class, () -> SidecarStage.open(sidecar,
                    "{\"protocol\": 1, \"kind\": \"no-such-kind\", \"name\": \"q9\"}", allocator));
            assertEquals("open", e.call());
            assertTrue(e.getMessage().contains("unknown stage kind 'no-such-kind'"), e.getMessage());
            assertTrue(e.row().isEmpty());
        }
    }

    @Test
    void killedSidecarIsReportedOnTheNextCall() throws Exception {
        SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
        try (SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator);
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 10, 20)) {
            ProcessHandle.of(sidecar.pid()).orElseThrow().destroyForcibly();
            ProcessHandle.of(sidecar.pid()).ifPresent(p -> p.onExit().join());

            SidecarException e = assertThrows(SidecarException.class, () -> stage.process(batch));
            assertTrue(e.getMessage().contains("(pid " + sidecar.pid() + ") died before answering process(stage"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("killed by signal 9"), e.getMessage());
            SidecarException again = assertThrows(SidecarException.class, () -> stage.process(batch));
            assertEquals(e.getMessage(), again.getMessage());
        } finally {
            sidecar.close();
        }
        assertNothingLeft(sidecar);
    }

    @Test
    void hungSidecarIsKilledAfterTheCallTimeout() throws Exception {
        SidecarProcess sidecar = SidecarProcess.start(TestPython.settings().withCallTimeout(Duration.ofSeconds(1)));
        try (SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator);
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 10, 20)) {
            Hang.stop(sidecar.pid());
            SidecarException e = assertThrows(SidecarException.class, () -> stage.process(batch));
            assertTrue(e.getMessage().contains("did not answer process(stage"), e.getMessage());
            assertTrue(e.getMessage().contains("within 1000 ms and was killed"), e.getMessage());
            ProcessHandle.of(sidecar.pid()).ifPresent(p -> p.onExit().join());
            assertTrue(ProcessHandle.of(sidecar.pid()).isEmpty(), "the hung sidecar is still there");
        } finally {
            sidecar.close();
        }
        assertNothingLeft(sidecar);
    }

    @Test
    void sidecarsAreForkedByOneServerThatOutlivesThem() throws Exception {
        long server;
        try (SidecarProcess first = SidecarProcess.start(TestPython.settings());
                SidecarProcess second = SidecarProcess.start(TestPython.settings())) {
            server = parentOf(first.pid());
            assertEquals(server, parentOf(second.pid()));
            assertTrue(server != ProcessHandle.current().pid(), "the JVM started the sidecar itself");
            String command = ProcessHandle.of(server).orElseThrow().info().commandLine().orElse("");
            assertTrue(command.contains("accelerator.sidecar.fork_server"), command);
        }
        assertTrue(ProcessHandle.of(server).isPresent(), "the fork server exited with its sidecars");
    }

    @Test
    void whenTheForkServerDiesItsSidecarsFailTheirCallsAndTheNextStartHasANewServer() throws Exception {
        SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
        long server = parentOf(sidecar.pid());
        try (SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator);
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 10, 20)) {
            ProcessHandle.of(server).orElseThrow().destroyForcibly();
            ProcessHandle.of(sidecar.pid()).ifPresent(p -> p.onExit().join());

            SidecarException e = assertThrows(SidecarException.class, () -> stage.process(batch));
            assertTrue(e.getMessage().contains("(pid " + sidecar.pid() + ") died before answering process(stage"),
                    e.getMessage());
        } finally {
            sidecar.close();
        }
        assertNothingLeft(sidecar);
        try (SidecarProcess next = SidecarProcess.start(TestPython.settings())) {
            assertTrue(parentOf(next.pid()) != server, "the dead fork server's pid is still the parent");
            assertEquals(SidecarControl.PROTOCOL_VERSION, next.protocolVersion());
        }
    }

    @Test
    void connectionsWithoutTheTokenAreRefusedOnBothSides() throws Exception {
        try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings())) {
            // py4j's text protocol, authentication first: "A\n<token>\n" to the JVM, the same and an
            // end marker to Python. The calls refused below are first shown to work with the token:
            // requestRegion() on the JVM's entry point ("t"), protocolVersion() on the sidecar's
            // control object (whose id is found by trying).
            String token = "A\n" + sidecar.authToken() + "\n";
            String pythonToken = token + "e\n";
            String requestRegion = "c\nt\nrequestRegion\ne\n";
            List<String> jvm = answer(sidecar.gatewayPort(), token + requestRegion, 2);
            assertEquals("!yv", jvm.get(0), jvm.toString());
            assertEquals("!ys" + sidecar.requestRegion(), jvm.get(1));
            String protocolVersion = null;
            for (int id = 0; id < 10 && protocolVersion == null; id++) {
                String call = "c\np" + id + "\nprotocolVersion\ne\n";
                if (answer(sidecar.callbackPort(), pythonToken + call, 2)
                        .equals(List.of("!yv", "!yi" + SidecarControl.PROTOCOL_VERSION))) {
                    protocolVersion = call;
                }
            }
            assertTrue(protocolVersion != null, "no control object answered protocolVersion() with the token");

            assertRefused(sidecar.gatewayPort(), requestRegion);
            assertRefused(sidecar.gatewayPort(), "A\nnot-the-token\n" + requestRegion);
            assertRefused(sidecar.callbackPort(), protocolVersion);
            assertRefused(sidecar.callbackPort(), "A\nnot-the-token\ne\n" + protocolVersion);
            assertEquals(SidecarControl.PROTOCOL_VERSION, sidecar.protocolVersion());
        }
    }

    @Test
    void afterCloseNoProcessAndNoSharedMemoryFileRemains() throws Exception {
        SidecarProcess sidecar = SidecarProcess.start(TestPython.settings());
        try (SidecarStage stage = SidecarStage.open(sidecar, IDENTITY, allocator);
                VectorSchemaRoot batch = Batches.kafkaRecords(allocator, 10, 20)) {
            stage.process(batch).close();
            assertTrue(Files.exists(sidecar.requestRegion()) && Files.exists(sidecar.responseRegion()));
        }
        sidecar.close();
        assertNothingLeft(sidecar);
        SidecarException e = assertThrows(SidecarException.class,
                () -> SidecarStage.open(sidecar, IDENTITY, allocator));
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }

    @Test
    void wrongInterpreterPathIsOneClearError() {
        SidecarSettings settings = new SidecarSettings("/no/such/python3", SidecarSettings.DEFAULT_CALL_TIMEOUT,
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        SidecarSetupException e = assertThrows(SidecarSetupException.class, () -> SidecarProcess.start(settings));
        assertTrue(e.getMessage().startsWith("Cannot start the Python sidecar with"
                + " accelerator.python.executable=/no/such/python3: cannot run it ("), e.getMessage());
        assertTrue(e.getMessage().contains("/no/such/python3 -m pip install flink-accelerator=="), e.getMessage());
    }

    @Test
    void interpreterWithoutTheAcceleratorPackageIsOneClearError(@TempDir Path dir) throws IOException {
        // The venv's interpreter without its site-packages: a Python that lacks the package.
        Path python = TestPython.wrapper(dir.resolve("python-without-accelerator"), "", "-S");
        SidecarSettings settings = new SidecarSettings(python.toString(), SidecarSettings.DEFAULT_CALL_TIMEOUT,
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        SidecarSetupException e = assertThrows(SidecarSetupException.class, () -> SidecarProcess.start(settings));
        assertTrue(e.getMessage().contains("accelerator.python.executable=" + python
                + ": it has no usable 'accelerator' package"), e.getMessage());
        assertTrue(e.getMessage().contains(python + " -m pip install flink-accelerator=="), e.getMessage());
        assertTrue(e.getMessage().contains("No module named"), e.getMessage());
    }

    @Test
    void packageOfAnotherReleaseIsOneClearErrorNamingBothVersionsAndBothFixes(@TempDir Path dir) throws IOException {
        // The venv's interpreter, its accelerator package claiming another release (sitecustomize
        // runs before the sidecar imports the package, so the sidecar reports that version).
        Path site = Files.createDirectories(dir.resolve("site"));
        Files.writeString(site.resolve("sitecustomize.py"), "import accelerator\naccelerator.__version__ = '0.0.1'\n");
        Path python = TestPython.wrapper(dir.resolve("python-of-another-release"), "PYTHONPATH=" + site, "");
        SidecarSettings settings = new SidecarSettings(python.toString(), SidecarSettings.DEFAULT_CALL_TIMEOUT,
                SidecarSettings.DEFAULT_START_TIMEOUT, SidecarSettings.DEFAULT_INITIAL_REGION_BYTES);
        SidecarSetupException e = assertThrows(SidecarSetupException.class, () -> SidecarProcess.start(settings));
        String version = BuildInfo.version();
        assertTrue(e.getMessage().contains("accelerator.python.executable=" + python + ": it has accelerator 0.0.1"
                + " but this jar is flink-accelerator " + version), e.getMessage());
        assertTrue(e.getMessage().contains(python + " -m pip install flink-accelerator==" + version), e.getMessage());
        assertTrue(e.getMessage().contains("Or keep accelerator 0.0.1 and put its own jar into every TaskManager's"
                + " lib/ (then restart them): " + python + " -m accelerator install-jar --flink-home "), e.getMessage());
    }

    private static long parentOf(long pid) {
        return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).orElseThrow().pid();
    }

    private static void assertRefused(int port, String command) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(command.getBytes(StandardCharsets.UTF_8));
            out.flush();
            String answer = readAll(socket.getInputStream());
            assertFalse(answer.contains("!y"), "port " + port + " answered an unauthenticated call: " + answer);
        }
    }

    /** The first {@code lines} lines a py4j peer answers to {@code command} on a raw connection. */
    private static List<String> answer(int port, String command, int lines) throws IOException {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(command.getBytes(StandardCharsets.UTF_8));
            socket.getOutputStream().flush();
            java.io.BufferedReader in = new java.io.BufferedReader(
                    new java.io.InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> answered = new java.util.ArrayList<>();
            for (String line; answered.size() < lines && (line = in.readLine()) != null; ) {
                answered.add(line);
            }
            return answered;
        }
    }

    private static String readAll(InputStream in) throws IOException {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static void assertNothingLeft(SidecarProcess sidecar) throws IOException {
        assertTrue(ProcessHandle.of(sidecar.pid()).isEmpty(), "sidecar process " + sidecar.pid() + " still exists");
        assertFalse(Files.exists(sidecar.requestRegion()), sidecar.requestRegion().toString());
        assertFalse(Files.exists(sidecar.responseRegion()), sidecar.responseRegion().toString());
        try (Stream<Path> files = Files.list(SharedRegion.SHM_DIRECTORY)) {
            String pid = "-" + sidecar.pid() + "-";
            List<Path> left = files.filter(p -> p.getFileName().toString().contains(pid)).toList();
            assertTrue(left.isEmpty(), "left in /dev/shm: " + left);
        }
    }
}
