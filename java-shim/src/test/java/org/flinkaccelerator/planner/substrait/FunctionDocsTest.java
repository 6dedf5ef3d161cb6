package org.flinkaccelerator.planner.substrait;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** docs/functions.md must be exactly what the function registry renders. */
class FunctionDocsTest {
    private static final Path PAGE =
            Paths.get(System.getProperty("basedir", "."), "..", "docs", "functions.md").normalize();

    @Test
    void pageMatchesTheRegistry() throws IOException {
        String rendered = FunctionDocs.render();
        if (Boolean.getBoolean("regenerate.docs")) {
            Files.writeString(PAGE, rendered, StandardCharsets.UTF_8);
        }
        String onDisk = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, onDisk, PAGE + " is out of date; regenerate it with: " + FunctionDocs.REGENERATE);
    }
}
