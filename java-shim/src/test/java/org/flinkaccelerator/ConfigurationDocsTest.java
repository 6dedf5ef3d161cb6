package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/** docs/configuration.md must be exactly what the option registry renders. */
class ConfigurationDocsTest {
    private static final Path PAGE =
            Paths.get(System.getProperty("basedir", "."), "..", "docs", "configuration.md").normalize();

    @Test
    void pageMatchesTheOptionRegistry() throws IOException {
        String rendered = ConfigurationDocs.render();
        if (Boolean.getBoolean("regenerate.docs")) {
            Files.writeString(PAGE, rendered, StandardCharsets.UTF_8);
        }
        String onDisk = Files.exists(PAGE) ? Files.readString(PAGE, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, onDisk, PAGE + " is out of date; regenerate it with: " + ConfigurationDocs.REGENERATE);
    }
}
