package org.flinkaccelerator.planner.substrait;

/** Renders docs/functions.md from the {@link FunctionRegistry} and {@link SubstraitTypes}, so the page cannot drift. */
final class FunctionDocs {
    static final String REGENERATE =
            "mvn -f java-shim/pom.xml test -Dtest=FunctionDocsTest -Dregenerate.docs=true";

    private FunctionDocs() {}

    static String render() {
        StringBuilder md = new StringBuilder();
        md.append("# Functions and types\n\n")
                .append("<!-- Generated from FunctionRegistry and SubstraitTypes (java-shim); do not edit by hand.\n")
                .append("     Regenerate with: ").append(REGENERATE).append(" -->\n\n")
                .append("A segment is accelerated only if every type and function in it is listed here as\n")
                .append("supported, within the limits noted; anything else (including any function not listed)\n")
                .append("keeps the segment on stock Flink, and the planner logs why. `DataFusion built-in` runs\n")
                .append("DataFusion's own function, which has Flink's semantics within those limits; `Flink UDF`\n")
                .append("runs the sidecar's implementation of Flink's semantics (`accelerator/plans/udfs.py`),\n")
                .append("named under the extension URN `").append(Urns.FLINK).append("`.\n\n")
                .append("## Types\n\n")
                .append("| Flink type | supported | note |\n|---|---|---|\n");
        for (SubstraitTypes.Support type : SubstraitTypes.table()) {
            md.append("| ").append(type.flinkType()).append(" | ").append(type.supported() ? "yes" : "no")
                    .append(" | ").append(cell(type.note())).append(" |\n");
        }
        md.append("\n## Functions\n\n")
                .append("| Flink SQL | status | semantics, limits or reason |\n|---|---|---|\n");
        for (FunctionEntry entry : FunctionRegistry.standard().entries()) {
            md.append("| `").append(entry.sql().replace("|", "\\|")).append("` | ").append(status(entry.status()))
                    .append(" | ").append(cell(entry.semantics())).append(" |\n");
        }
        return md.toString();
    }

    private static String status(FunctionStatus status) {
        switch (status) {
            case BUILTIN: return "DataFusion built-in";
            case FLINK_UDF: return "Flink UDF";
            default: return "not accelerated";
        }
    }

    private static String cell(String text) {
        return text.replace("|", "\\|");
    }
}
