package org.apache.flink.table.planner.loader;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.Map;
import org.apache.flink.core.classloading.ComponentClassLoader;
import org.apache.flink.table.delegation.ExecutorFactory;
import org.apache.flink.table.delegation.PlannerFactory;
import org.apache.flink.table.factories.FactoryUtil;
import org.flinkaccelerator.loader.PlannerClassLoaderLayout;
import org.flinkaccelerator.loader.PlannerHook;
import org.flinkaccelerator.loader.PlannerJars;

/**
 * Stands in for flink-table-api-java-uber's class of the same name (the shim jar sorts first in
 * lib/), with the same public API as Flink 2.2.1 because Flink's own classes call it. It builds
 * the planner's component class loader over [accelerator planner jar, stock planner jar] and
 * creates the accelerator's planner factory; everything else is stock. The decisions live in
 * org.flinkaccelerator.loader; this class only adapts them to Flink's API.
 */
public class PlannerModule {
    private final PlannerComponentClassLoader submoduleClassLoader;
    private final boolean hooked;

    private PlannerModule() {
        ClassLoader owner = PlannerModule.class.getClassLoader();
        this.hooked = PlannerHook.shouldInstall(owner);
        URL stockPlanner = PlannerJars.extract(owner, PlannerJars.STOCK_PLANNER_RESOURCE, "flink-table-planner",
                "is flink-table-planner-loader-*.jar in lib/?");
        URL[] urls;
        String[] componentFirst;
        if (hooked) {
            URL accelerator = PlannerHook.extractEmbeddedJar(owner);
            urls = new URL[] {accelerator, stockPlanner};
            componentFirst = PlannerClassLoaderLayout.hookedComponentFirstPackages();
            PlannerHook.logInstalled(accelerator, stockPlanner);
        } else {
            urls = new URL[] {stockPlanner};
            componentFirst = PlannerClassLoaderLayout.stockComponentFirstPackages();
        }
        this.submoduleClassLoader = new PlannerComponentClassLoader(urls, owner,
                PlannerClassLoaderLayout.ownerFirstPackages(), componentFirst,
                PlannerClassLoaderLayout.knownModuleAssociations());
    }

    /** Lazily created once per JVM, like stock. */
    private static final class Instance {
        private static final PlannerModule INSTANCE = new PlannerModule();
    }

    public static PlannerModule getInstance() {
        return Instance.INSTANCE;
    }

    /** The planner's class loader; the JobManager reads its URLs for adaptive joins. */
    public URLClassLoader getSubmoduleClassLoader() {
        return submoduleClassLoader;
    }

    /** Used by Flink to add a SQL dialect's jar to the planner's class loader. */
    public void addUrlToClassLoader(URL url) {
        submoduleClassLoader.addURL(url);
    }

    public ExecutorFactory loadExecutorFactory() {
        return FactoryUtil.discoverFactory(
                submoduleClassLoader, ExecutorFactory.class, ExecutorFactory.DEFAULT_IDENTIFIER);
    }

    public PlannerFactory loadPlannerFactory() {
        PlannerFactory accelerated = hooked ? PlannerHook.createFactoryOrNull(submoduleClassLoader) : null;
        if (accelerated != null) {
            return accelerated;
        }
        return FactoryUtil.discoverFactory(
                submoduleClassLoader, PlannerFactory.class, PlannerFactory.DEFAULT_IDENTIFIER);
    }

    /** A ComponentClassLoader that lets Flink add URLs later, as stock. */
    static class PlannerComponentClassLoader extends ComponentClassLoader {
        public PlannerComponentClassLoader(URL[] classpath, ClassLoader ownerClassLoader,
                String[] ownerFirstPackages, String[] componentFirstPackages,
                Map<String, String> knownPackagePrefixesModuleAssociation) {
            super(classpath, ownerClassLoader, ownerFirstPackages, componentFirstPackages,
                    knownPackagePrefixesModuleAssociation);
        }

        @Override
        public void addURL(URL url) {
            super.addURL(url);
        }
    }
}
