package org.flinkaccelerator.planner.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Protobuf message classes compiled from .proto files at test time, as a user compiles theirs: protoc
 * and protobuf-java of the release flink-protobuf 2.2.0 is built with (copied by the build into
 * {@code target/user-protobuf}), javac, and a class loader of their own over those classes and that
 * runtime, apart from the protobuf-java (3.x, relocated in the shim jar) the shim bundles. Compiled
 * once per content under {@code target/test-protos/<hash>}.
 */
public final class TestProtos {
    static final Path REPO = Paths.get(System.getProperty("basedir", "."), "..").normalize();
    /** The messages of the compatibility cases and golden descriptors (the distribution carries them too). */
    public static final Path COMPAT = REPO.resolve("flink-compat-tests/protos");
    /** Messages made to be refused, for the shim's own checks. */
    public static final Path SHIM = Paths.get(System.getProperty("basedir", "."), "src/test/protos");
    /**
     * An editions file (refused too), apart from {@link #SHIM}: protoc of the 1.20 line's protobuf
     * release (3.21.7) has no editions and fails on it.
     */
    public static final Path EDITIONS = Paths.get(System.getProperty("basedir", "."), "src/test/protos-editions");
    /** The sidecar's oracle tests' messages (every field shape, proto2 and proto3). */
    public static final Path KITCHEN = REPO.resolve("tests/formats/protos");

    private static final Map<String, Compiled> COMPILED = new ConcurrentHashMap<>();

    /** protoc's output for some .proto files: the classes' loader and protoc's own descriptor set. */
    public record Compiled(ClassLoader loader, byte[] descriptorSet) {}

    private TestProtos() {}

    /** Every .proto file in {@code dir}, compiled (imports from the same folder and protobuf's own). */
    public static Compiled compile(Path dir) {
        return COMPILED.computeIfAbsent(dir.toString(), key -> doCompile(dir));
    }

    /** Runs {@code body} with {@code loader} as the thread's context class loader, as Flink's client would. */
    public static <T> T withContextLoader(ClassLoader loader, Supplier<T> body) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return body.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static Compiled doCompile(Path dir) {
        try {
            Path tools = Paths.get(System.getProperty("accelerator.test.user-protobuf",
                    System.getProperty("basedir", ".") + "/target/user-protobuf"));
            Path protoc = tools.resolve("protoc");
            Path runtime = tools.resolve("protobuf-java.jar");
            assertTrue(Files.isRegularFile(protoc) && Files.isRegularFile(runtime), "no protoc/protobuf-java in " + tools
                    + "; the Maven build copies them there (generate-test-resources)");
            List<Path> protos;
            try (Stream<Path> files = Files.list(dir)) {
                protos = files.filter(p -> p.toString().endsWith(".proto")).sorted().toList();
            }
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(Files.readAllBytes(runtime));
            for (Path proto : protos) {
                digest.update(proto.getFileName().toString().getBytes(StandardCharsets.UTF_8));
                digest.update(Files.readAllBytes(proto));
            }
            Path out = tools.resolveSibling("test-protos").resolve(HexFormat.of().formatHex(digest.digest(), 0, 8));
            if (!Files.isDirectory(out)) {
                buildOnce(protoc, runtime, dir, protos, out);
            }
            URLClassLoader loader = new URLClassLoader(new URL[] {url(out.resolve("classes")), url(runtime)},
                    ClassLoader.getPlatformClassLoader());
            return new Compiled(loader, Files.readAllBytes(out.resolve("descriptors.pb")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException | InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Builds into a folder of this JVM's own and renames it to {@code out}: the test JVMs run side by
     * side, and a folder that exists is complete (the JVM that loses the race uses the winner's).
     */
    private static void buildOnce(Path protoc, Path runtime, Path dir, List<Path> protos, Path out)
            throws IOException, InterruptedException {
        Files.createDirectories(out.getParent());
        Path building = Files.createTempDirectory(out.getParent(), out.getFileName() + ".building-");
        build(protoc, runtime, dir, protos, building, building.resolve("classes"), building.resolve("descriptors.pb"));
        try {
            Files.move(building, out, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException raced) {
            // rename(2) onto the other JVM's complete folder fails ("Directory not empty").
            if (!Files.isDirectory(out)) {
                throw raced;
            }
            try (Stream<Path> files = Files.walk(building)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void build(Path protoc, Path runtime, Path dir, List<Path> protos, Path out, Path classes,
            Path descriptors) throws IOException, InterruptedException {
        Path include = out.resolve("include");
        Path sources = out.resolve("java");
        Files.createDirectories(include);
        Files.createDirectories(sources);
        Files.createDirectories(classes);
        // protoc from Maven comes without the well-known types; protobuf-java carries their .proto files.
        try (ZipInputStream jar = new ZipInputStream(Files.newInputStream(runtime))) {
            for (ZipEntry entry; (entry = jar.getNextEntry()) != null; ) {
                if (entry.getName().endsWith(".proto")) {
                    Path target = include.resolve(entry.getName());
                    Files.createDirectories(target.getParent());
                    Files.write(target, jar.readAllBytes());
                }
            }
        }
        protoc.toFile().setExecutable(true);
        List<String> command = new ArrayList<>(List.of(protoc.toString(), "--proto_path=" + dir,
                "--proto_path=" + include, "--java_out=" + sources, "--descriptor_set_out=" + descriptors,
                "--include_imports"));
        protos.forEach(p -> command.add(p.getFileName().toString()));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try (InputStream stream = process.getInputStream()) {
            output = new String(stream.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "protoc did not finish");
        assertEquals(0, process.exitValue(), "protoc failed: " + output);
        List<String> javac = new ArrayList<>(List.of("-nowarn", "-encoding", "UTF-8", "-d", classes.toString(),
                "-cp", runtime.toString()));
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(p -> p.toString().endsWith(".java")).forEach(p -> javac.add(p.toString()));
        }
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, compiler.run(null, null, null, javac.toArray(new String[0])), "javac failed on " + sources);
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(e);
        }
    }
}
