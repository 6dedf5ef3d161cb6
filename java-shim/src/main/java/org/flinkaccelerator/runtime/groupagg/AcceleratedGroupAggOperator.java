package org.flinkaccelerator.runtime.groupagg;

import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.state.ChangelogBatchOperator;

/**
 * A non-windowed group aggregate whose accumulators live in the Python sidecar's
 * {@code group_agg} stage, emitting what stock Flink's {@code GroupAggFunction} (run by a
 * {@code KeyedProcessOperator}) emits for each input row, in input order: {@code +I} on a key's
 * first row, then {@code -U} (when the planner asks for update-befores) and {@code +U} when the
 * aggregate value changed, nothing when it did not, and over an updating input {@code -D} when a
 * retraction leaves the key without rows; each output row is the key joined with the values. Batching and emission are {@link ChangelogBatchOperator}'s; a checkpoint writes the
 * sidecar's accumulators per key group into raw keyed state ({@link GroupAggStateFormat}).
 */
public final class AcceleratedGroupAggOperator extends ChangelogBatchOperator<GroupAggSpec> {
    private static final long serialVersionUID = 1L;
    private static final Kind KIND = new Kind("group_agg", "group aggregate", "group", "group keys",
            GroupAggStateFormat.FORMAT);

    public AcceleratedGroupAggOperator(GroupAggSpec spec) {
        super(spec);
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    @Override
    protected String option() {
        return "accelerator.group-aggregate.enabled";
    }

    @Override
    protected RowData output(RowKind kind, RowData key, RowData values) {
        return new JoinedRowData(kind, key, values);
    }
}
