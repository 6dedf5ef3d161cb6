package org.flinkaccelerator.loader;

import java.net.URL;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.delegation.PlannerFactory;
import org.flinkaccelerator.Activation;
import org.flinkaccelerator.ActivationLog;
import org.flinkaccelerator.BuildInfo;
import org.flinkaccelerator.FlinkVersionSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the shim's PlannerModule differs from stock: which embedded jar goes ahead of the stock
 * planner, and which factory it creates. The planner-side classes extend planner internals, so
 * they live in that embedded jar and are loaded only by the planner's component class loader.
 */
public final class PlannerHook {
    private static final Logger LOG = LoggerFactory.getLogger(PlannerHook.class);

    /** Created by class name: a second 'default' factory in a services file would clash with stock. */
    public static final String FACTORY_CLASS = "org.flinkaccelerator.planner.AcceleratedPlannerFactory";

    private PlannerHook() {}

    /** Where the build puts the planner-side jar inside the shim jar. */
    public static String embeddedJarResource() {
        return "META-INF/flink-accelerator/flink-accelerator-" + BuildInfo.version() + "-planner.jar";
    }

    /**
     * Whether this JVM gets the hook: a supported Flink and the embedded jar present. Otherwise
     * the planner loads exactly as stock (and one WARN says why).
     */
    public static boolean shouldInstall(ClassLoader owner) {
        return shouldInstall(owner, EnvironmentInformation.getVersion());
    }

    static boolean shouldInstall(ClassLoader owner, String running) {
        if (!FlinkVersionSupport.isSupported(running)) {
            ActivationLog.report(Activation.UNSUPPORTED_FLINK, running);
            return false;
        }
        if (!PlannerJars.present(owner, embeddedJarResource())) {
            LOG.warn("flink-accelerator {}: planner hook INACTIVE, {} is missing from the shim jar"
                    + " (broken build?); plans stay stock Flink's.", BuildInfo.version(), embeddedJarResource());
            return false;
        }
        return true;
    }

    /** Copies the planner-side jar out of the shim jar. */
    public static URL extractEmbeddedJar(ClassLoader owner) {
        return PlannerJars.extract(owner, embeddedJarResource(), "flink-accelerator-planner",
                "the flink-accelerator jar is incomplete; rebuild it");
    }

    /** Logs where the planner's classes come from: the line to look for when the hook seems inert. */
    public static void logInstalled(URL acceleratorJar, URL stockPlannerJar) {
        LOG.info("flink-accelerator {}: planner hook installed in the table planner's class loader"
                        + " (accelerator planner classes from {}, then the stock planner from {})",
                BuildInfo.version(), acceleratorJar, stockPlannerJar);
    }

    /**
     * Instantiates the accelerator's planner factory from the component class loader, or returns
     * null (after one WARN) when it cannot: the caller then uses stock's factory, so a broken
     * shim never stops Flink from planning.
     */
    public static PlannerFactory createFactoryOrNull(ClassLoader componentLoader) {
        try {
            return Class.forName(FACTORY_CLASS, true, componentLoader)
                    .asSubclass(PlannerFactory.class)
                    .getDeclaredConstructor()
                    .newInstance();
        } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
            LOG.warn("flink-accelerator {}: planner hook INACTIVE, could not create {}; plans stay stock"
                    + " Flink's. Is this the jar built for this Flink version?", BuildInfo.version(), FACTORY_CLASS, e);
            return null;
        }
    }
}
