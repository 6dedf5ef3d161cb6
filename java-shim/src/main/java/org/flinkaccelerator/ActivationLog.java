package org.flinkaccelerator;

import java.util.EnumSet;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Says once per process what the hook does with plans: one line per distinct {@link Activation}
 * (so a {@code SET} that flips the flag is visible, but a thousand queries log nothing more).
 */
public final class ActivationLog {
    private static final Logger LOG = LoggerFactory.getLogger(ActivationLog.class);
    private static final Set<Activation> REPORTED = EnumSet.noneOf(Activation.class);

    private ActivationLog() {}

    /** Logs {@code activation} unless this process already did; returns whether it logged. */
    public static boolean report(Activation activation, String runningFlinkVersion) {
        synchronized (REPORTED) {
            if (!REPORTED.add(activation)) {
                return false;
            }
        }
        String line = message(activation, runningFlinkVersion);
        if (activation == Activation.UNSUPPORTED_FLINK) {
            LOG.warn(line);
        } else {
            LOG.info(line);
        }
        return true;
    }

    /** The line for {@code activation}; always names both versions and the flag's value. */
    static String message(Activation activation, String runningFlinkVersion) {
        String who = "flink-accelerator " + BuildInfo.version() + " (built for Flink "
                + BuildInfo.flinkVersion() + ") on Flink " + runningFlinkVersion;
        String flag = AcceleratorOptions.ENABLED.key();
        switch (activation) {
            case ENABLED:
                return who + ": planner hook active, " + flag + "=true: streaming plans are"
                        + " rewritten where the accelerator supports every operator exactly.";
            case DISABLED:
                return who + ": planner hook active, " + flag + "=false: plans stay exactly"
                        + " stock Flink's. Set " + flag + ": true to accelerate.";
            default:
                return who + ": planner hook INACTIVE, this jar supports Flink "
                        + String.join(", ", BuildInfo.supportedFlinkVersions()) + " only; every plan stays stock"
                        + " Flink's whatever " + flag + " says. " + remedy(runningFlinkVersion);
        }
    }

    /** What to do on an unsupported release: the other line's jar when it serves that release, else a supported release. */
    private static String remedy(String runningFlinkVersion) {
        if (BuildInfo.otherLineFlinkVersions().contains(runningFlinkVersion)) {
            return "Flink " + runningFlinkVersion + " is served by the other jar of this release, "
                    + BuildInfo.otherLineJar() + ": put it into lib/ of every Flink process in place of this one"
                    + " (accelerator install-jar --flink-home <Flink folder> picks it) and restart them.";
        }
        return "Run one of those releases to accelerate.";
    }

    /** Forgets what was logged; for tests. */
    static void reset() {
        synchronized (REPORTED) {
            REPORTED.clear();
        }
    }
}
