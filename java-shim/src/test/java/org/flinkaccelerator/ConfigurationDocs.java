package org.flinkaccelerator;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.description.HtmlFormatter;
import org.apache.flink.util.TimeUtils;

/** Renders docs/configuration.md from {@link AcceleratorOptions}, so the page cannot drift. */
final class ConfigurationDocs {
    static final String REGENERATE =
            "mvn -f java-shim/pom.xml test -Dtest=ConfigurationDocsTest -Dregenerate.docs=true";

    private ConfigurationDocs() {}

    static String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Configuration\n\n")
                .append("<!-- Generated from AcceleratorOptions (java-shim); do not edit by hand. Regenerate with:\n")
                .append("     ").append(REGENERATE).append(" -->\n\n")
                .append("The accelerator's options are ordinary Flink options: set them in `conf/config.yaml`,\n")
                .append("per session with `SET 'accelerator.enabled' = 'true';` in the SQL client, or with\n")
                .append("`-Daccelerator.enabled=true`. With the jar in `lib/` and `accelerator.enabled` false (the\n")
                .append("default), Flink plans and runs every job exactly as stock.\n\n")
                .append("The planner reads them from the job's table configuration when it plans the job, so a\n")
                .append("`SET` before an INSERT applies to that job. `accelerator explain JOB.sql` shows which\n")
                .append("operators would run accelerated; the accelerated operator's metrics are in\n")
                .append("docs/metrics.md.\n\n")
                .append("| Key | Default | Type | Description |\n")
                .append("|---|---|---|---|\n");
        for (ConfigOption<?> option : AcceleratorOptions.all()) {
            md.append("| `").append(option.key()).append("` | `").append(value(option.defaultValue()))
                    .append("` | ").append(type(option.defaultValue())).append(" | ")
                    .append(new HtmlFormatter().format(option.description()).replace("|", "\\|"))
                    .append(" |\n");
        }
        return md.toString();
    }

    private static String value(Object value) {
        return value instanceof Duration ? TimeUtils.formatWithHighestUnit((Duration) value) : String.valueOf(value);
    }

    private static String type(Object value) {
        return value.getClass().getSimpleName();
    }
}
