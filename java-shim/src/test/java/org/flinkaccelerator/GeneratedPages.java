package org.flinkaccelerator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Pages under docs/ that a registry renders: a test fails when the page on disk differs, and
 * {@code -Dregenerate.docs=true} rewrites it, so the docs cannot drift from the code.
 */
public final class GeneratedPages {
    private GeneratedPages() {}

    public static void assertUpToDate(String page, String rendered, String regenerate) throws IOException {
        Path path = Paths.get(System.getProperty("basedir", "."), "..", "docs", page).normalize();
        if (Boolean.getBoolean("regenerate.docs")) {
            Files.writeString(path, rendered, StandardCharsets.UTF_8);
        }
        String onDisk = Files.exists(path) ? Files.readString(path, StandardCharsets.UTF_8) : "";
        assertEquals(rendered, onDisk, path + " is out of date; regenerate it with: " + regenerate);
    }
}
