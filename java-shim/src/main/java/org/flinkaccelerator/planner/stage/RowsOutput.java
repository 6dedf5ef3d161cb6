package org.flinkaccelerator.planner.stage;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.substrait.NotReproducible;
import org.flinkaccelerator.planner.substrait.SubstraitTypes;

/**
 * Rows that cross between stock Flink operators and the sidecar (docs/architecture.md, "The stage
 * contract"), each column in the Arrow layout of its Flink type: the input of an encode stage, and
 * the output of a rows stage, which ends with {@value #MESSAGE}, the index in the input batch of
 * the message each row came from (the operator gives the row that message's record timestamp, as
 * Flink's own Calc keeps its input's).
 */
final class RowsOutput {
    /** The message index column: the last column of the decoded table and of the output. */
    static final String MESSAGE = "$message";
    static final LogicalType MESSAGE_TYPE = new IntType(false);

    private RowsOutput() {}

    /**
     * Why the sidecar cannot hand rows of this type to a stock operator exactly (empty: it can).
     * Every type with a Substrait type has an Arrow layout the shim's column vectors read in place
     * ({@code runtime.arrow.ArrowTypes}).
     */
    static List<String> problems(RowType output) {
        List<String> problems = new ArrayList<>();
        for (RowType.RowField field : output.getFields()) {
            if (field.getName().equals(MESSAGE)) {
                problems.add("an output column is named '" + MESSAGE + "', the name of the message index column");
            }
            try {
                SubstraitTypes.of(field.getType());
            } catch (NotReproducible e) {
                problems.add("output column " + field.getName() + ": " + e.getMessage());
            }
        }
        return problems;
    }

    /** The decoded table with {@value #MESSAGE} after its columns; a reason when a column already has that name. */
    static RowType withMessageColumn(RowType decoded, String where, List<FallbackReason> reasons) {
        if (decoded.getFieldNames().contains(MESSAGE)) {
            reasons.add(new FallbackReason(where, "a column is named '" + MESSAGE
                    + "', the name of the stage's message index column"));
        }
        List<RowType.RowField> fields = new ArrayList<>(decoded.getFields());
        fields.add(new RowType.RowField(MESSAGE, MESSAGE_TYPE));
        return new RowType(fields);
    }

    /** The descriptor's output fields: the row's columns with their Flink types, then {@value #MESSAGE}. */
    static List<StageField> fields(RowType output) {
        List<StageField> fields = columns(output);
        fields.add(new StageField(MESSAGE, MESSAGE_TYPE.asSerializableString()));
        return fields;
    }

    /** The row's columns with their Flink types: an encode stage's input fields. */
    static List<StageField> columns(RowType row) {
        List<StageField> fields = new ArrayList<>();
        for (RowType.RowField field : row.getFields()) {
            fields.add(new StageField(field.getName(), field.getType().asSerializableString()));
        }
        return fields;
    }
}
