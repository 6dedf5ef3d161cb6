package org.flinkaccelerator.runtime.state;

import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.flinkaccelerator.runtime.FieldGetters;
import org.flinkaccelerator.runtime.exchange.BatchInput;

/**
 * A one-input {@link KeyedRowBatchOperator} standing in for a stock Flink
 * {@code KeyedProcessFunction}: each output row is stamped with its input row's timestamp, as
 * {@code KeyedProcessOperator} stamps it. The input is insert-only unless the spec says it is
 * updating ({@link ChangelogSpec#updatingInput}); a batch row is {@code $key}, {@code $key_group},
 * the row's RowKind byte {@code $kind} over an updating input, then the columns the spec names.
 *
 * @param <S> the operator's spec
 */
public abstract class ChangelogBatchOperator<S extends ChangelogSpec> extends KeyedRowBatchOperator<S>
        implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private transient RowData.FieldGetter[] columns;
    /** Whether rows carry their RowKind to the stage; otherwise only INSERT rows are accepted. */
    private transient boolean updatingInput;
    /** Where the spec's columns start in a batch row: after the transport columns. */
    private transient int firstColumn;
    /** Reads batch records when the input is a batch exchange's ({@link ChangelogSpec#batchedInput}); else null. */
    private transient BatchInput batchInput;
    private transient boolean batched;

    protected ChangelogBatchOperator(S spec) {
        super(spec);
    }

    @Override
    protected void initializeOwnState(StateInitializationContext context) {
        int[] indexes = spec.columnIndexes();
        updatingInput = spec.updatingInput();
        firstColumn = ChangelogSpec.TRANSPORT_COLUMNS + (updatingInput ? 1 : 0);
        columns = new RowData.FieldGetter[indexes.length];
        for (int i = 0; i < columns.length; i++) {
            columns[i] = FieldGetters.nullChecked(spec.inputType().getTypeAt(indexes[i]), indexes[i]);
        }
        batched = spec.batchedInput();
        initializeBatches();
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (batched) {
            batchInput = batchInput(spec.keyArity());
        }
    }

    @Override
    protected boolean readsBatches(int input) {
        return input == 0 && spec.batchedInput();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        if (batchInput != null) {
            batchInput.process(row, this::sendPart);
            return;
        }
        if (!updatingInput) {
            checkInsert(row);
        } else {
            batchRow.setField(ChangelogSpec.TRANSPORT_COLUMNS, row.getRowKind().toByteValue());
        }
        for (int i = 0; i < columns.length; i++) {
            batchRow.setField(firstColumn + i, columns[i].getFieldOrNull(row));
        }
        bufferRow(element, true, 16L * (firstColumn + columns.length));
    }

    @Override
    public void endInput() throws Exception {
        sendBatch();
    }
}
