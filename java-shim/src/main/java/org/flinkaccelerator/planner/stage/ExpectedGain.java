package org.flinkaccelerator.planner.stage;

import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The planner's cost check for partial acceleration: a stage that leaves the sidecar no work
 * that costs stock Flink more than the round trip and the Arrow-backed rows cost us keeps its
 * nodes stock, with the reason in the report and {@code accelerator explain}. Whole segments
 * always gain (decode, Calcs and encode in one call) and are not asked; encode stages write json
 * or csv only, whose Flink serializers cost more than the round trip.
 */
public final class ExpectedGain {
    private static final String RAW = "raw";

    private ExpectedGain() {}

    /**
     * Why the rows stage {@code rows} over a source in {@code sourceFormat} is not expected to
     * save CPU, or null when it is: no branch runs a Calc, and the source is {@code raw} (Flink's
     * raw decoder only wraps the bytes) or the rows hold a ROW column (stock operators read nested
     * rows through Arrow-backed column vectors more slowly than Flink's own decoder builds them:
     * measured on Nexmark q3, whose source fed two stock Calcs over its three ROW columns, 3.82
     * CPU-s per million events accelerated against 3.68 stock).
     */
    public static String rows(String sourceFormat, RowsExport rows) {
        if (rows.branches().stream().anyMatch(b -> b.calcs() > 0)) {
            return null;
        }
        if (RAW.equals(sourceFormat)) {
            return "no gain expected: the stage would run no Calc, and Flink's raw format decodes by wrapping the"
                    + " message bytes, cheaper than the round trip to the sidecar";
        }
        for (RowsExport.Branch branch : rows.branches()) {
            for (RowType.RowField field : branch.rows().getFields()) {
                if (field.getType().getTypeRoot() == LogicalTypeRoot.ROW) {
                    return "no gain expected: the stage would run no Calc and hand the stock operators after it the"
                            + " nested ROW column " + field.getName() + ", which they read from Arrow more slowly"
                            + " than Flink's decoder builds it (measured: Nexmark q3)";
                }
            }
        }
        return null;
    }
}
