package org.flinkaccelerator.runtime.state;

import java.util.List;
import java.util.stream.IntStream;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.utils.JoinedRowData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * An accelerated operator's output rows in the classes stock's operator emits them as, where it
 * forwards its input row: a deduplication and a Top-N without a rank number emit that row itself (a
 * BinaryRowData, as its keyed input and state hold it), a Top-N with a rank number and an OVER
 * aggregate a JoinedRowData of that row and their own values.
 *
 * <p>The class decides what a chained operator reads from a NULL field it does not check with
 * {@code isNullAt}, as Flink's sink timestamp inserter reads the rowtime: a BinaryRowData reads a
 * NULL TIMESTAMP(3) as epoch 0, any other row null. Flink copies every record it hands a chained
 * operator ({@code RowDataSerializer.copy}: a BinaryRowData stays one, any other row becomes a
 * GenericRowData holding null) unless object reuse is on; then the row arrives as it is, and a
 * JoinedRowData reads the forwarded columns from its BinaryRowData.
 */
public final class ForwardedInputRows {
    private final boolean objectReuse;
    /** The forwarded columns, written as BinaryRowData. */
    private final RowDataSerializer forwarded;
    /** The forwarded and the operator's own columns of an output row; null when all are forwarded. */
    private final ProjectedRowData forwardedPart;
    private final ProjectedRowData ownPart;
    private final RowDataSerializer ownCopier;

    /**
     * @param outputType the operator's output row
     * @param forwardedColumns how many leading columns are the forwarded input row's (1 to all)
     * @param objectReuse whether Flink hands the rows on without copying them
     */
    public ForwardedInputRows(RowType outputType, int forwardedColumns, boolean objectReuse) {
        List<LogicalType> types = outputType.getChildren();
        if (forwardedColumns < 1 || forwardedColumns > types.size()) {
            throw new IllegalArgumentException("forwarded columns " + forwardedColumns + " of an output row of "
                    + types.size());
        }
        this.objectReuse = objectReuse;
        forwarded = new RowDataSerializer(types.subList(0, forwardedColumns).toArray(new LogicalType[0]));
        boolean whole = forwardedColumns == types.size();
        forwardedPart = whole ? null : ProjectedRowData.from(IntStream.range(0, forwardedColumns).toArray());
        ownPart = whole ? null : ProjectedRowData.from(IntStream.range(forwardedColumns, types.size()).toArray());
        ownCopier = whole ? null
                : new RowDataSerializer(types.subList(forwardedColumns, types.size()).toArray(new LogicalType[0]));
    }

    /** {@code row} (the operator's output row, its kind set) as stock's operator emits it. */
    public RowData of(RowData row) {
        if (forwardedPart == null) {
            BinaryRowData binary = forwarded.toBinaryRow(row);
            // The serializer's reused row: without object reuse Flink copies or serializes it at once.
            return objectReuse ? binary.copy() : binary;
        }
        if (!objectReuse) {
            // Flink's copy turns stock's JoinedRowData into a GenericRowData, as it does this row.
            return row;
        }
        BinaryRowData input = forwarded.toBinaryRow(forwardedPart.replaceRow(row)).copy();
        return new JoinedRowData(row.getRowKind(), input, ownCopier.copy(ownPart.replaceRow(row)));
    }
}
