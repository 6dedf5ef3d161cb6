package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.time.Duration;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sidecar that hands the JVM a response region it did not create as a region: the start fails
 * with one clear error and the file is neither opened nor deleted. The sidecar is the real one,
 * started through the real launcher, except that it offers the path the test chose.
 */
class UntrustedResponseRegionTest {
    private static final String CONTENT = "data the TaskManager user owns\n";

    /**
     * Loaded at the fake interpreter's start-up: the sidecar offers the path written in the file
     * ACCELERATOR_TEST_OFFER names (when that file is not empty) instead of its own response region,
     * which it still creates and removes as usual.
     */
    private static final String OFFERING_SIDECAR = """
            import os

            from accelerator.sidecar import server

            _offer_file = os.environ["ACCELERATOR_TEST_OFFER"]
            _connect = server._connect


            class _OfferingJvm:
                def __init__(self, jvm):
                    self._jvm = jvm

                def __getattr__(self, name):
                    return getattr(self._jvm, name)

                def attach(self, port, region, version, control):
                    with open(_offer_file, encoding="utf-8") as f:
                        offered = f.read()
                    return self._jvm.attach(port, offered or region, version, control)


            def _connect_offering(port, token):
                gateway = _connect(port, token)
                gateway.entry_point = _OfferingJvm(gateway.entry_point)
                return gateway


            server._connect = _connect_offering
            """;

    @TempDir
    static Path fake;
    private static String python;

    @TempDir
    Path dir;
    private Path inShm;

    /** One fake interpreter (so one fork server) for the class; each test writes its offer. */
    @BeforeAll
    static void fakeInterpreter() throws IOException {
        Path site = Files.createDirectories(fake.resolve("site"));
        Files.writeString(site.resolve("sitecustomize.py"), OFFERING_SIDECAR);
        Files.writeString(fake.resolve("offer"), "");
        python = TestPython.wrapper(fake.resolve("python-offering"), "PYTHONPATH=" + site
                + " ACCELERATOR_TEST_OFFER=" + fake.resolve("offer"), "").toString();
    }

    @AfterEach
    void removeShmFile() throws IOException {
        if (inShm != null) {
            Files.deleteIfExists(inShm);
        }
    }

    @Test
    void fileOutsideTheRegionDirectoryIsRefusedAndLeftAlone() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), CONTENT);
        SidecarSetupException e = startOffering(victim);
        assertEquals(CONTENT, Files.readString(victim));
        assertRefused(e, victim, "it is not in /dev/shm");
    }

    @Test
    void symbolicLinkInTheRegionDirectoryIsRefusedAndNeitherItNorItsTargetIsTouched() throws IOException {
        Path victim = Files.writeString(dir.resolve("victim"), CONTENT);
        inShm = Files.createSymbolicLink(SharedRegion.SHM_DIRECTORY.resolve(regionName("response")), victim);
        SidecarSetupException e = startOffering(inShm);
        assertTrue(Files.isSymbolicLink(inShm), "the link was removed");
        assertEquals(CONTENT, Files.readString(victim));
        assertRefused(e, inShm, "it is a symbolic link");
    }

    @Test
    void fileNotNamedAsAResponseRegionIsRefusedAndLeftAlone() throws IOException {
        inShm = Files.writeString(SharedRegion.SHM_DIRECTORY.resolve(regionName("request")), CONTENT);
        SidecarSetupException e = startOffering(inShm);
        assertEquals(CONTENT, Files.readString(inShm));
        assertRefused(e, inShm, "its name is not a response region's");
    }

    @Test
    void fileOfAnotherUserIsRefusedAndLeftAlone() throws IOException {
        inShm = Files.writeString(SharedRegion.SHM_DIRECTORY.resolve(regionName("response")), CONTENT);
        UserPrincipal nobody = null;
        try {
            nobody = inShm.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
            Files.setOwner(inShm, nobody);
        } catch (IOException e) {
            assumeTrue(false, "cannot give a file to the user nobody (only root can): " + e);
        }
        SidecarSetupException e = startOffering(inShm);
        assertEquals(CONTENT, Files.readString(inShm));
        assertEquals(nobody, Files.getOwner(inShm, LinkOption.NOFOLLOW_LINKS));
        assertRefused(e, inShm, "it is owned by nobody, not by");
    }

    /** The positive control: the same fake sidecar offering a region named and placed as it should be. */
    @Test
    void regionNamedAndPlacedAsTheSidecarCreatesItIsAccepted() throws IOException {
        try (SharedRegion offered = SharedRegion.create("response", 0)) {
            offer(offered.path().toString());
            try (SidecarProcess sidecar = SidecarProcess.start(TestPython.settings(python))) {
                assertEquals(offered.path(), sidecar.responseRegion());
                assertEquals(SidecarControl.PROTOCOL_VERSION, sidecar.protocolVersion());
            }
        }
    }

    /** The rendezvous tells the refused sidecar too, and a second attach does not undo the refusal. */
    @Test
    void refusalFailsTheSidecarsCallAndEveryWait() throws Exception {
        Path victim = Files.writeString(dir.resolve("victim"), CONTENT);
        try (SharedRegion requests = SharedRegion.create("request", 0);
                SharedRegion good = SharedRegion.create("response", 0)) {
            SidecarRendezvous rendezvous = new SidecarRendezvous(requests.path());
            SidecarSetupException toSidecar = assertThrows(SidecarSetupException.class,
                    () -> rendezvous.attach(1, victim.toString(), "v", null));
            assertRefused(toSidecar, victim, "it is not in /dev/shm");
            rendezvous.attach(1, good.path().toString(), "v", null);
            SidecarSetupException toLauncher = assertThrows(SidecarSetupException.class,
                    () -> rendezvous.await(Duration.ZERO));
            assertEquals(toSidecar.getMessage(), toLauncher.getMessage());
        }
        assertEquals(CONTENT, Files.readString(victim));
    }

    private static SidecarSetupException startOffering(Path offered) throws IOException {
        offer(offered.toString());
        return assertThrows(SidecarSetupException.class,
                () -> SidecarProcess.start(TestPython.settings(python)).close());
    }

    private static void offer(String path) throws IOException {
        Files.writeString(fake.resolve("offer"), path);
    }

    /** A file name as a region of {@code role} has, with a pid no process of the test has. */
    private static String regionName(String role) {
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        return "flink-accelerator-" + role + "-999999999-" + HexFormat.of().formatHex(random);
    }

    private static void assertRefused(SidecarSetupException e, Path offered, String reason) {
        String message = e.getMessage();
        assertTrue(message.startsWith("Refused the response region the Python sidecar offered: " + offered
                + " (" + reason), message);
        assertTrue(message.contains("Expected a regular file named flink-accelerator-response-<pid>-<32 hex digits>"
                + " in /dev/shm"), message);
        assertTrue(message.contains("The sidecar is not trusted: the file was not opened and is left as it is."),
                message);
        assertTrue(message.contains("Check that accelerator.python.executable runs an unmodified flink-accelerator"),
                message);
    }
}
