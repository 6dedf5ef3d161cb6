package org.flinkaccelerator.planner.substrait;

/** Extension URNs the plans name functions under. */
final class Urns {
    static final String ARITHMETIC = "extension:io.substrait:functions_arithmetic";
    static final String COMPARISON = "extension:io.substrait:functions_comparison";
    static final String BOOLEAN = "extension:io.substrait:functions_boolean";
    static final String STRING = "extension:io.substrait:functions_string";
    /** DataFusion's own built-ins, named as DataFusion registers them (its consumer finds functions by name). */
    static final String DATAFUSION = "extension:org.apache.datafusion:functions";
    /** Functions with Flink's semantics, run by the sidecar as its own UDFs (accelerator/plans/udfs.py). */
    static final String FLINK = "extension:org.flinkaccelerator:functions_flink";

    private Urns() {}
}
