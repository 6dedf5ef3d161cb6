package org.flinkaccelerator;

/**
 * Decides whether the running Flink may be hooked. The planner hook depends on internal planner
 * classes of one release line, so any other line keeps stock behaviour (and says so once).
 */
public final class FlinkVersionSupport {
    private FlinkVersionSupport() {}

    /** True when {@code runningVersion} is a release of the same major.minor line as the build. */
    public static boolean isSupported(String runningVersion) {
        return runningVersion != null
                && releaseLine(runningVersion).equals(releaseLine(BuildInfo.flinkVersion()));
    }

    /** "2.2.1" and "2.2-SNAPSHOT" give "2.2"; anything without two numeric parts gives "". */
    static String releaseLine(String version) {
        String[] parts = version.split("[.-]");
        if (parts.length < 2 || !isNumber(parts[0]) || !isNumber(parts[1])) {
            return "";
        }
        return parts[0] + "." + parts[1];
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.chars().allMatch(Character::isDigit);
    }
}
