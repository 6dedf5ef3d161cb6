package org.flinkaccelerator.runtime;

import java.util.List;
import java.util.function.Consumer;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.flink.streaming.api.operators.Output;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.util.OutputTag;
import org.flinkaccelerator.runtime.arrow.ArrowRowBatch;
import org.flinkaccelerator.sidecar.SidecarException;

/**
 * One output of a rows stage's answer for a batch: the rows (the row's columns in the shared
 * Arrow layout, then the int32 index of each row's message in the batch), handed out message by
 * message, in message order, to the operator's main output or one side output. A stage over a
 * shared source has one per branch; emitting them message by message keeps each message's rows
 * together across branches, as a source hands each record to all its consumers in turn.
 */
final class BranchRows {
    private final ArrowRowBatch rows;
    private final IntVector messageIndex;
    private final int count;
    private final OutputTag<RowData> tag;
    /** Copies each emitted row when object reuse lets the next operator keep it (else null). */
    private final RowDataSerializer copier;
    /** The rows are a folded local window aggregate's partials, which stock emits without a timestamp. */
    private final boolean erasesTimestamps;
    private final StreamRecord<RowData> record = new StreamRecord<>(null);
    private int next;

    /**
     * @param answer one output of the sidecar's answer
     * @param tag the side output it goes to, null for the main output
     * @param erasesTimestamps the rows are a folded local window aggregate's partials ({@link LocalPhaseOutputs}):
     *     emitted without a record timestamp, as stock's local phase emits them
     * @param where the operator's name, for errors
     */
    BranchRows(VectorSchemaRoot answer, RowType rowType, OutputTag<RowData> tag, RowDataSerializer copier,
            boolean erasesTimestamps, String where) {
        List<FieldVector> vectors = answer.getFieldVectors();
        int columns = rowType.getFieldCount();
        if (vectors.size() != columns + 1 || !(vectors.get(columns) instanceof IntVector)) {
            throw new SidecarException(where + ": the sidecar's answer " + answer.getSchema() + " is not the " + columns
                    + " columns of " + rowType.asSummaryString() + " followed by an int32 message index");
        }
        List<FieldVector> rowVectors = vectors.subList(0, columns);
        try {
            this.rows = new ArrowRowBatch(rowType, new VectorSchemaRoot(
                    rowVectors.stream().map(FieldVector::getField).toList(), rowVectors, answer.getRowCount()));
        } catch (IllegalArgumentException e) {
            throw new SidecarException(where + ": the sidecar's answer cannot be read as " + rowType.asSummaryString()
                    + ": " + e.getMessage(), e);
        }
        this.messageIndex = (IntVector) vectors.get(columns);
        this.count = answer.getRowCount();
        this.tag = tag;
        this.copier = copier;
        this.erasesTimestamps = erasesTimestamps;
    }

    /**
     * Emits the rows of message {@code message}, each stamped by {@code stamp}; messages come in
     * order, so a row naming an earlier message breaks the contract.
     */
    void emit(int message, Output<StreamRecord<RowData>> output, Consumer<StreamRecord<?>> stamp) {
        while (next < count && messageIndex.get(next) == message) {
            RowData row = rows.reusedRow(next);
            StreamRecord<RowData> out = record.replace(copier == null ? row : copier.copy(row));
            if (erasesTimestamps) {
                out.eraseTimestamp();
            } else {
                stamp.accept(out);
            }
            if (tag == null) {
                output.collect(out);
            } else {
                output.collect(tag, out);
            }
            next++;
        }
        if (next < count && messageIndex.get(next) < message) {
            throw new IllegalArgumentException("result row " + next + " names message " + messageIndex.get(next)
                    + " after the rows of message " + message + ": rows must come in message order");
        }
    }

    /** Checks, after the batch's last message, that every row named one of its {@code messages} messages. */
    void finish(int messages) {
        if (next != count) {
            throw new IllegalArgumentException("result row " + next + " names message " + messageIndex.get(next)
                    + " of a batch of " + messages);
        }
    }
}
