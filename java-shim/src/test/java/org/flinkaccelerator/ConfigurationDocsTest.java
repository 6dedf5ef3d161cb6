package org.flinkaccelerator;

import java.io.IOException;
import org.junit.jupiter.api.Test;

/** docs/configuration.md must be exactly what the option registry renders. */
class ConfigurationDocsTest {
    @Test
    void pageMatchesTheOptionRegistry() throws IOException {
        GeneratedPages.assertUpToDate("configuration.md", ConfigurationDocs.render(), ConfigurationDocs.REGENERATE);
    }
}
