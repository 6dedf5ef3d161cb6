package org.flinkaccelerator.planner.stage;

import java.util.BitSet;
import java.util.List;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexVisitorImpl;
import org.flinkaccelerator.planner.substrait.CalcProgram;

/**
 * The input columns of an encode stage that may carry a lone UTF-16 surrogate (in its three-byte
 * form, {@code runtime.arrow.LoneSurrogates}): those whose values reach the sidecar's json encoder
 * only as they are, which escapes the surrogate as Flink's json serializer does. A column that an
 * expression or a condition reads does not: the sidecar's functions read UTF-8. Nor does any
 * column of a csv sink: Flink's csv serializer fails on a lone surrogate, and so does the stage.
 */
final class LoneSurrogateColumns {
    private LoneSurrogateColumns() {}

    /**
     * @param inputWidth the columns of the rows the stage consumes
     * @param readByCalcs the input columns the stage's Calcs read ({@link #readByCalcs})
     * @param sinkFormats the sink's value format and, when it writes keys, its key format
     */
    static BitSet of(int inputWidth, BitSet readByCalcs, List<String> sinkFormats) {
        BitSet kept = new BitSet();
        if (sinkFormats.stream().allMatch("json"::equals)) {
            kept.set(0, inputWidth);
            kept.andNot(readByCalcs);
        }
        return kept;
    }

    /**
     * The input columns an expression or a condition of the Calcs reads (directly or through a Calc
     * before), and those that reach a column of the last Calc's output in {@code notEncoded}: the
     * written Kafka metadata, which goes back to Java and Flink's sink rather than to the encoder.
     */
    static BitSet readByCalcs(List<CalcProgram> programs, BitSet notEncoded) {
        BitSet refused = (BitSet) notEncoded.clone(); // of the rows after the last Calc
        for (int k = programs.size() - 1; k >= 0; k--) {
            refused = refusedBy(programs.get(k), refused);
        }
        return refused;
    }

    /**
     * The input columns of {@code calc} that must refuse a lone surrogate: those its condition or an
     * expression reads, and those it projects as they are into a column of {@code outputRefused}.
     */
    private static BitSet refusedBy(CalcProgram calc, BitSet outputRefused) {
        BitSet refused = new BitSet();
        RexVisitorImpl<Void> reads = new RexVisitorImpl<>(true) {
            @Override
            public Void visitInputRef(RexInputRef ref) {
                refused.set(ref.getIndex());
                return null;
            }
        };
        if (calc.condition() != null) {
            calc.condition().accept(reads);
        }
        for (int i = 0; i < calc.projection().size(); i++) {
            RexNode projected = calc.projection().get(i);
            if (!(projected instanceof RexInputRef) || outputRefused.get(i)) {
                projected.accept(reads);
            }
        }
        return refused;
    }
}
