package org.flinkaccelerator.loader;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import org.flinkaccelerator.BuildInfo;
import org.junit.jupiter.api.Test;

class PlannerHookTest {

    @Test
    void factoryIsInThePackageTheBuildEmbeds() {
        assertTrue(PlannerHook.FACTORY_CLASS.startsWith("org.flinkaccelerator.planner."));
        assertTrue(PlannerHook.embeddedJarResource().endsWith("flink-accelerator-" + BuildInfo.version() + "-planner.jar"));
    }

    @Test
    void hookIsInstalledOnTheSupportedReleasesOnly() {
        ClassLoader withEmbeddedJar = new ClassLoader(null) {
            @Override
            public URL getResource(String name) {
                return name.equals(PlannerHook.embeddedJarResource()) ? getClass().getResource("/flink-accelerator.properties") : null;
            }
        };
        for (String version : BuildInfo.supportedFlinkVersions()) {
            assertTrue(PlannerHook.shouldInstall(withEmbeddedJar, version), version);
        }
        for (String version : BuildInfo.otherLineFlinkVersions()) {
            assertFalse(PlannerHook.shouldInstall(withEmbeddedJar, version), version);
        }
        assertFalse(PlannerHook.shouldInstall(withEmbeddedJar, "2.3.1"));
        assertFalse(PlannerHook.shouldInstall(withEmbeddedJar, "1.19.3"));
    }

    @Test
    void hookIsNotInstalledWithoutTheEmbeddedJar() {
        assertFalse(PlannerHook.shouldInstall(new ClassLoader(null) {}, BuildInfo.flinkVersion()));
    }
}
