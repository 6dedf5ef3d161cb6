package org.flinkaccelerator.sidecar;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.flinkaccelerator.AcceleratorOptions;

/** The interpreter the sidecar tests run: the project's venv, as the build passes it in. */
public final class TestPython {
    static final String PROPERTY = "accelerator.test.python";

    private TestPython() {}

    /** The interpreter's path; skips the test (saying why) when it is not there. */
    public static String path() {
        String path = System.getProperty(PROPERTY, "../.cache/venv/bin/python");
        Path python = Path.of(path);
        assumeTrue(Files.isRegularFile(python) && Files.isExecutable(python), "No Python sidecar interpreter at "
                + path + " (system property " + PROPERTY + "); run `make venv` first. `make test` always has it.");
        return path;
    }

    /** Settings as the operator builds them from the Flink configuration. */
    static SidecarSettings settings() {
        return settings(path());
    }

    /** The same, for the interpreter {@code python}. */
    static SidecarSettings settings(String python) {
        return SidecarSettings.from(new Configuration().set(AcceleratorOptions.PYTHON_EXECUTABLE, python));
    }

    /**
     * A shell script at {@code script} that runs the test interpreter with {@code environment}
     * (shell assignments, may be empty) and {@code options} before the script's own arguments: an
     * altered interpreter to set as accelerator.python.executable.
     */
    static Path wrapper(Path script, String environment, String options) throws IOException {
        Files.writeString(script, "#!/bin/sh\n" + environment + " exec " + Path.of(path()).toAbsolutePath() + " "
                + options + " \"$@\"\n");
        script.toFile().setExecutable(true);
        return script;
    }
}
