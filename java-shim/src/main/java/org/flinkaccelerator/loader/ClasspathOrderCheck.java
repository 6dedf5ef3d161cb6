package org.flinkaccelerator.loader;

import java.net.URL;
import java.security.CodeSource;
import java.util.Set;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.table.factories.Factory;
import org.flinkaccelerator.BuildInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once per JVM whether the shim's PlannerModule is the one Flink will load. The hook only
 * works when the shim jar precedes flink-table-api-java-uber on the class path (bin/flink,
 * sql-client.sh and the cluster daemons sort lib/; a plain {@code python script.py} PyFlink
 * launch does not), and otherwise nothing of the shim would ever run to say so. Registered as a
 * table Factory only to be instantiated by Flink's first factory discovery; it creates nothing
 * and implements no concrete factory type, so no connector or format listing shows it.
 */
public final class ClasspathOrderCheck implements Factory {
    private static final Logger LOG = LoggerFactory.getLogger(ClasspathOrderCheck.class);
    static final String PLANNER_MODULE = "org.apache.flink.table.planner.loader.PlannerModule";

    static {
        try {
            report();
        } catch (Throwable t) {
            // Never break factory discovery over a log line.
            LOG.debug("flink-accelerator class path check failed", t);
        }
    }

    @Override
    public String factoryIdentifier() {
        return "flink-accelerator-classpath-check";
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of();
    }

    private static void report() throws ClassNotFoundException {
        ClassLoader loader = ClasspathOrderCheck.class.getClassLoader();
        URL shim = location(ClasspathOrderCheck.class);
        URL winner = location(Class.forName(PLANNER_MODULE, false, loader));
        if (sameJar(shim, winner)) {
            LOG.info("flink-accelerator {}: class path order OK, Flink loads the shim's PlannerModule from {}",
                    BuildInfo.version(), shim);
        } else {
            LOG.warn("flink-accelerator {}: planner hook INACTIVE in this JVM: Flink loads the stock"
                            + " PlannerModule from {} before the shim jar {}, so every plan is stock Flink's"
                            + " whatever accelerator.enabled says. Put the shim jar first on the class path"
                            + " (bin/flink and sql-client.sh do this for lib/; a plain 'python script.py'"
                            + " PyFlink launch does not).",
                    BuildInfo.version(), winner, shim);
        }
    }

    static boolean sameJar(URL a, URL b) {
        return a != null && b != null && a.toExternalForm().equals(b.toExternalForm());
    }

    private static URL location(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        return source == null ? null : source.getLocation();
    }
}
