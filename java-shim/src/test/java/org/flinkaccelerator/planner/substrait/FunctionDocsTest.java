package org.flinkaccelerator.planner.substrait;

import java.io.IOException;
import org.flinkaccelerator.GeneratedPages;
import org.junit.jupiter.api.Test;

/** docs/functions.md must be exactly what the function registry renders. */
class FunctionDocsTest {
    @Test
    void pageMatchesTheRegistry() throws IOException {
        GeneratedPages.assertUpToDate("functions.md", FunctionDocs.render(), FunctionDocs.REGENERATE);
    }
}
