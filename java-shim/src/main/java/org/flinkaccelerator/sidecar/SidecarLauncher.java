package org.flinkaccelerator.sidecar;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.SocketFactory;
import org.flinkaccelerator.BuildInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import py4j.CallbackClient;
import py4j.GatewayServer;

/**
 * Starts one sidecar and shakes hands with it; any problem with the interpreter or its accelerator
 * package becomes one {@link SidecarSetupException} that names {@code accelerator.python.executable}
 * and what to install.
 *
 * <p>Sequence: create the request region; start a py4j GatewayServer on loopback with a random
 * token (the callback client uses the same token and the call timeout as its read timeout); have
 * the {@link SidecarForkServer} fork a sidecar (or start it directly while a server is retired),
 * handing it the token over a stdin (never argv or the environment, which other users can read);
 * wait until it attaches (callback port, response region, its control object); point py4j's
 * callback client at that port; check protocol and package version over the callback direction.
 */
final class SidecarLauncher {
    private static final Logger LOG = LoggerFactory.getLogger(SidecarLauncher.class);
    /** 127.0.0.1 exactly, as the sidecar uses, whatever the JVM's IPv6 preference. */
    static final InetAddress LOOPBACK = loopback();
    /** The sidecar's exit code when the JVM speaks another protocol (accelerator/sidecar/server.py). */
    static final int EXIT_PROTOCOL_MISMATCH = 3;
    private static final Duration POLL = Duration.ofMillis(50);
    private static final Duration DRAIN = Duration.ofSeconds(2);
    private static final long IDLE_CONNECTION_SECONDS = 30;
    private static final SecureRandom RANDOM = new SecureRandom();

    private SidecarLauncher() {}

    static SidecarProcess launch(SidecarSettings settings, SharedMemoryBudget budget) {
        long startedAt = System.nanoTime();
        SidecarProcess sidecar = startAndAttach(settings, budget);
        try {
            checkVersions(sidecar, settings.pythonExecutable());
        } catch (RuntimeException e) {
            sidecar.close();
            throw e;
        }
        LOG.info("Python sidecar pid {} ready in {} ms: accelerator {}, protocol {}, accelerator.python.executable={}",
                sidecar.pid(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedAt),
                sidecar.acceleratorVersion(), SidecarControl.PROTOCOL_VERSION, settings.pythonExecutable());
        return sidecar;
    }

    private static SidecarProcess startAndAttach(SidecarSettings settings, SharedMemoryBudget budget) {
        String python = settings.pythonExecutable();
        SharedRegion requests = null;
        GatewayServer gateway = null;
        Process process = null;
        SidecarRendezvous.Attachment attachment = null;
        try {
            requests = SharedRegion.create("request", settings.initialRegionBytes());
            String token = newToken();
            SidecarRendezvous rendezvous = new SidecarRendezvous(requests.path());
            gateway = new GatewayServer.GatewayServerBuilder(rendezvous)
                    .javaAddress(LOOPBACK)
                    .javaPort(0)
                    .authToken(token)
                    .callbackClient(new CallbackClient(0, LOOPBACK, token, IDLE_CONNECTION_SECONDS, TimeUnit.SECONDS,
                            SocketFactory.getDefault(), false, (int) settings.callTimeout().toMillis()))
                    .build();
            gateway.start(true);
            SidecarForkServer.Started started = startProcess(settings, gateway.getListeningPort(), token);
            process = started.process();
            SidecarOutput output = started.output();
            attachment = awaitAttachment(rendezvous, process, output, settings);
            gateway.resetCallbackClient(LOOPBACK, attachment.callbackPort());
            SharedRegion responses = SharedRegion.attach(attachment.responseRegion());
            return new SidecarProcess(settings, process, gateway, attachment, requests, responses, budget, output,
                    token);
        } catch (SidecarSetupException e) {
            abandon(process, gateway, requests, attachment);
            throw e;
        } catch (IOException | RuntimeException e) {
            abandon(process, gateway, requests, attachment);
            throw new SidecarSetupException("Cannot start the Python sidecar with accelerator.python.executable="
                    + python + ": " + e, e);
        } catch (InterruptedException e) {
            abandon(process, gateway, requests, attachment);
            Thread.currentThread().interrupt();
            throw new SidecarException("Interrupted while starting the Python sidecar", e);
        }
    }

    private static SidecarForkServer.Started startProcess(SidecarSettings settings, int gatewayPort, String token)
            throws InterruptedException {
        return SidecarForkServer.start(settings.pythonExecutable(), List.of(
                "--port", String.valueOf(gatewayPort),
                "--token-file", "-",
                "--jvm-pid", String.valueOf(ProcessHandle.current().pid())), token, settings.startTimeout());
    }

    private static SidecarRendezvous.Attachment awaitAttachment(SidecarRendezvous rendezvous, Process process,
            SidecarOutput output, SidecarSettings settings) throws InterruptedException {
        long deadline = System.nanoTime() + settings.startTimeout().toNanos();
        while (true) {
            SidecarRendezvous.Attachment attachment = rendezvous.await(POLL);
            if (attachment != null) {
                return attachment;
            }
            if (!process.isAlive()) {
                throw exitedWhileStarting(settings.pythonExecutable(), process.exitValue(), output.tail(DRAIN));
            }
            if (System.nanoTime() > deadline) {
                throw setupFailure(settings.pythonExecutable(), "it did not connect back within "
                        + settings.startTimeout().toSeconds() + " s", output.tail(Duration.ZERO), null);
            }
        }
    }

    static SidecarSetupException exitedWhileStarting(String python, int exitCode, String tail) {
        if (exitCode == EXIT_PROTOCOL_MISMATCH) {
            return setupFailure(python, "its accelerator package speaks another transport protocol than this"
                    + " flink-accelerator " + BuildInfo.version() + " jar", tail, null);
        }
        if (tail.contains("No module named")) {
            return setupFailure(python, "it has no usable 'accelerator' package", tail, null);
        }
        return setupFailure(python, "it exited with code " + exitCode + " while starting", tail, null);
    }

    private static void checkVersions(SidecarProcess sidecar, String python) {
        int protocol = sidecar.protocolVersion();
        if (protocol != SidecarControl.PROTOCOL_VERSION) {
            throw setupFailure(python, "its accelerator package speaks transport protocol " + protocol
                    + ", this jar " + SidecarControl.PROTOCOL_VERSION, "", null);
        }
        if (!BuildInfo.version().equals(sidecar.acceleratorVersion())) {
            throw versionMismatch(python, sidecar.acceleratorVersion());
        }
    }

    /**
     * The package and the jar are different releases: names both versions and both fixes, the
     * package of the jar's release or the jar of the package's release (its install-jar command).
     */
    static SidecarSetupException versionMismatch(String python, String packageVersion) {
        SidecarSetupException e = setupFailure(python, "it has accelerator " + packageVersion
                + " but this jar is flink-accelerator " + BuildInfo.version()
                + " (the two must match exactly for identical results)", "", null);
        return new SidecarSetupException(e.getMessage() + " Or keep accelerator " + packageVersion
                + " and put its own jar into every TaskManager's lib/ (then restart them): " + python
                + " -m accelerator install-jar --flink-home " + flinkHome() + ".", null);
    }

    /** The Flink distribution this jar was loaded from (the folder above its lib/), as well as it can be told. */
    static String flinkHome() {
        try {
            Path jar = Path.of(
                    SidecarLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path lib = jar.getParent();
            if (Files.isRegularFile(jar) && lib != null && lib.getFileName().toString().equals("lib")
                    && lib.getParent() != null) {
                return lib.getParent().toString();
            }
        } catch (RuntimeException | URISyntaxException e) {
            // no code source (or not a file): say it in words below
        }
        return "<the Flink distribution>";
    }

    /** The one setup error: names the option, the problem and the command that fixes it. */
    static SidecarSetupException setupFailure(String python, String problem, String tail, Throwable cause) {
        String message = "Cannot start the Python sidecar with accelerator.python.executable=" + python + ": "
                + problem + ". Set accelerator.python.executable to a Python 3.11 interpreter that has the"
                + " matching package installed (" + python + " -m pip install flink-accelerator=="
                + BuildInfo.version() + ")." + (tail.isEmpty() ? "" : " Sidecar output:" + tail);
        return new SidecarSetupException(message, cause);
    }

    /** Undoes a half-done start: nothing of it may outlive the failure. */
    private static void abandon(Process process, GatewayServer gateway, SharedRegion requests,
            SidecarRendezvous.Attachment attachment) {
        if (process != null) {
            // SIGTERM first: a sidecar that still runs removes its own response region, which the
            // JVM removes only when the sidecar attached with a path it trusts.
            process.destroy();
            try {
                if (!process.waitFor(DRAIN.toMillis(), TimeUnit.MILLISECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(DRAIN.toMillis(), TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        if (gateway != null) {
            gateway.shutdown();
        }
        try {
            if (requests != null) {
                requests.close();
            }
            if (attachment != null) { // only ever a path that passed ResponseRegionCheck
                Files.deleteIfExists(attachment.responseRegion());
            }
        } catch (IOException e) {
            LOG.warn("Could not remove a shared-memory region of a sidecar that failed to start: {}", e.toString());
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByAddress("localhost", new byte[] {127, 0, 0, 1});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String newToken() {
        byte[] token = new byte[32];
        RANDOM.nextBytes(token);
        return HexFormat.of().formatHex(token);
    }
}
