package org.flinkaccelerator.runtime.rank;

import org.apache.flink.table.data.RowData;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.state.ChangelogBatchOperator;

/**
 * A Top-N ({@code ROW_NUMBER() OVER (PARTITION BY k ORDER BY s) <= N} over an insert-only input)
 * whose top rows per key live in the Python sidecar's {@code top_n} stage, emitting what stock
 * Flink's {@code AppendOnlyTopNFunction} (run by a {@code KeyedProcessOperator}) emits for each
 * input row, in input order. Batching and emission are {@link ChangelogBatchOperator}'s; a
 * checkpoint writes the sidecar's state per key group into raw keyed state ({@link RankStateFormat}).
 */
public final class AcceleratedRankOperator extends ChangelogBatchOperator<RankSpec> {
    private static final long serialVersionUID = 1L;
    private static final Kind KIND = new Kind(RankSpec.KIND, "Top-N", "Top-N", "top rows", RankStateFormat.FORMAT);

    public AcceleratedRankOperator(RankSpec spec) {
        super(spec);
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    @Override
    protected String option() {
        return "accelerator.top-n.enabled";
    }

    /** Stock's Top-N emits the BinaryRowData of its keyed input and state, joined to the rank number it selects. */
    @Override
    protected int forwardedColumns() {
        return spec.inputType().getFieldCount();
    }

    @Override
    protected RowData output(RowKind kind, RowData key, RowData values) {
        values.setRowKind(kind);
        return values;
    }
}
