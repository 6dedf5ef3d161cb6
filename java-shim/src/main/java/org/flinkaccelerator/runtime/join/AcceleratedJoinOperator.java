package org.flinkaccelerator.runtime.join;

import java.util.function.IntFunction;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.BoundedMultiInput;
import org.apache.flink.streaming.api.operators.TwoInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.exchange.BatchInput;
import org.flinkaccelerator.runtime.state.KeyedRowBatchOperator;

/**
 * A regular INNER, LEFT, RIGHT, FULL, SEMI or ANTI equi-join of two insert-only inputs whose rows live in the
 * Python sidecar's {@code join} stage, emitting what stock Flink's {@code StreamingJoinOperator} (or
 * {@code StreamingSemiAntiJoinOperator}) emits for each input row (an outer join's null-padded +I rows
 * and their -D at a first match, a semi or anti join's left rows and an anti join's -D of a left row
 * at its first match, with the kinds the stage answers), in input order, on the state backend the
 * planner saw (hashmap or RocksDB, whose orders of a key's rows differ; docs/design/stateful-joins.md).
 * Batching and emission are {@link KeyedRowBatchOperator}'s: both inputs' rows go into one batch in
 * arrival order, the inputs' combined watermark held among them, each row with its input
 * ({@code $side}) and its binary row ({@code $order}), by whose bytes RocksDB orders a key's rows
 * and whose hash places it in the hashmap backend's HashMap. A row whose key has a NULL where the join compares with {@code =} never joins, as stock's null filter
 * drops every pair with it: it is not sent, unless stock emits its input's unmatched rows (an outer
 * side null-padded, an anti join's left input as it is). Like stock's, the joined rows carry no timestamp. A checkpoint writes the sidecar's state
 * per key group into raw keyed state ({@link JoinStateFormat}).
 */
public final class AcceleratedJoinOperator extends KeyedRowBatchOperator<JoinSpec>
        implements TwoInputStreamOperator<RowData, RowData, RowData>, BoundedMultiInput {
    private static final long serialVersionUID = 1L;
    static final String OPTION = "accelerator.join.enabled";
    private static final Kind KIND = new Kind(JoinSpec.KIND, "join", "join", "join rows", JoinStateFormat.FORMAT);
    private static final byte LEFT = 0;
    private static final byte RIGHT = 1;

    private transient Side left;
    private transient Side right;
    private transient int[] nullFilteredKeys;
    private transient JoinStateRows stateRows;
    /** Per input, whether it arrives as batch records of a batch exchange ({@link JoinSpec#batchedInput}). */
    private transient boolean[] batched;
    /** Reads the batch records of the batched inputs; null when neither is. */
    private transient BatchInput batchInput;

    /**
     * One input: its fields' getters, where they go in a batch row, its rows' binary form, and
     * whether stock emits its rows that match nothing (so its rows with a NULL key are sent).
     */
    private record Side(byte id, RowData.FieldGetter[] fields, int firstColumn, int otherColumn, int otherCount,
            RowDataSerializer rows, boolean emitsUnmatched) {
        static Side of(byte id, RowType type, int firstColumn, int otherColumn, int otherCount,
                boolean emitsUnmatched) {
            RowData.FieldGetter[] fields = new RowData.FieldGetter[type.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                fields[i] = FieldGetters.nullChecked(type.getTypeAt(i), i);
            }
            return new Side(id, fields, firstColumn, otherColumn, otherCount, new RowDataSerializer(type),
                    emitsUnmatched);
        }
    }

    public AcceleratedJoinOperator(JoinSpec spec) {
        super(spec);
    }

    @Override
    protected Kind kind() {
        return KIND;
    }

    @Override
    protected String option() {
        return OPTION;
    }

    /**
     * Refuses a keyed state backend other than the one the planner saw in the job's configuration
     * (the descriptor's {@code state.backend}), whose iteration order the stage reproduces: the
     * backend may be set where the planner did not see it.
     */
    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        String backend = getKeyedStateBackend().getClass().getName();
        if (!backend.equals(JoinSpec.BACKEND_CLASSES.get(spec.backend()))) {
            throw new IllegalStateException(spec.operatorName() + ": this join was planned to emit its rows in the"
                    + " order of stock Flink's " + spec.backend() + " state backend, but the job runs "
                    + getKeyedStateBackend().getClass().getSimpleName() + "; set state.backend.type: "
                    + spec.backend() + " where the job is planned as where it runs, or " + OPTION + ": false");
        }
        int leftCount = spec.leftType().getFieldCount();
        int rightCount = spec.rightType().getFieldCount();
        int first = JoinSpec.TRANSPORT_COLUMNS;
        left = Side.of(LEFT, spec.leftType(), first, first + leftCount, rightCount, spec.leftEmitsUnmatched());
        right = Side.of(RIGHT, spec.rightType(), first + leftCount, first, leftCount, spec.rightEmitsUnmatched());
        boolean[] filter = spec.filterNullKeys();
        int filtered = 0;
        for (boolean f : filter) {
            filtered += f ? 1 : 0;
        }
        nullFilteredKeys = new int[filtered];
        for (int i = 0, at = 0; i < filter.length; i++) {
            if (filter[i]) {
                nullFilteredKeys[at++] = i;
            }
        }
        stateRows = new JoinStateRows(spec.operatorName(), spec);
        batched = new boolean[] {spec.batchedInput(0), spec.batchedInput(1)};
        initializeBatches();
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (batched[0] || batched[1]) {
            batchInput = batchInput(spec.keyArity());
        }
    }

    @Override
    protected boolean readsBatches(int input) {
        return spec.batchedInput(input);
    }

    @Override
    public void processElement1(StreamRecord<RowData> element) throws Exception {
        if (batched[0]) {
            batchInput.process(element.getValue(), this::sendUnstamped);
        } else {
            process(element, left);
        }
    }

    @Override
    public void processElement2(StreamRecord<RowData> element) throws Exception {
        if (batched[1]) {
            batchInput.process(element.getValue(), this::sendUnstamped);
        } else {
            process(element, right);
        }
    }

    /**
     * Sends the rows of a batch record (already this input's update rows) as one call; like
     * stock's, the joined rows carry no timestamp.
     */
    private void sendUnstamped(VectorSchemaRoot update, IntFunction<RowData> keys, long[] timestamps,
            boolean[] hasTimestamp) throws Exception {
        sendPart(update, keys, timestamps, new boolean[hasTimestamp.length]);
    }

    private void process(StreamRecord<RowData> element, Side side) throws Exception {
        RowData row = element.getValue();
        checkInsert(row);
        BinaryRowData key = (BinaryRowData) getCurrentKey();
        if (!side.emitsUnmatched() && key.anyNull(nullFilteredKeys)) {
            return;
        }
        BinaryRowData binary = side.rows().toBinaryRow(row);
        byte[] order = BinarySegmentUtils.copyToBytes(binary.getSegments(), binary.getOffset(), binary.getSizeInBytes());
        batchRow.setField(2, side.id());
        batchRow.setField(3, order);
        for (int i = 0; i < side.fields().length; i++) {
            batchRow.setField(side.firstColumn() + i, side.fields()[i].getFieldOrNull(row));
        }
        for (int i = 0; i < side.otherCount(); i++) {
            batchRow.setField(side.otherColumn() + i, null);
        }
        bufferRow(element, false, order.length + 16L * side.fields().length);
    }

    /** A frame of state format 4 gets its rows' keys and fields back from their binary rows ({@link JoinStateRows}). */
    @Override
    @SuppressWarnings("unchecked")
    protected VectorSchemaRoot restoredEntries(VectorSchemaRoot frame, int keyGroup) {
        return stateRows.complete(frame, allocator(), keyGroup, (KeySelector<RowData, ?>) getStateKeySelector1(),
                (KeySelector<RowData, ?>) getStateKeySelector2());
    }

    @Override
    public void endInput(int inputId) throws Exception {
        sendBatch();
    }

    @Override
    protected RowData output(RowKind kind, RowData key, RowData values) {
        values.setRowKind(kind);
        return values;
    }
}
