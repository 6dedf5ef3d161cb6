package org.flinkaccelerator.planner.groupwindow;

import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ArrayNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.planner.exchange.BatchReadingNode;
import org.flinkaccelerator.planner.replace.SidecarStateExecNode;
import org.flinkaccelerator.runtime.groupwindow.AcceleratedGroupWindowOperator;
import org.flinkaccelerator.runtime.groupwindow.GroupWindowSpec;

/**
 * The ExecNode of an accelerated group window aggregate, running {@link AcceleratedGroupWindowOperator}
 * keyed by the grouping fields, with an OPERATOR weight for its state. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code group-window-aggregate}.
 */
public final class AcceleratedGroupWindowExecNode extends SidecarStateExecNode<GroupWindowSpec>
        implements BatchReadingNode {
    static final String CONTEXT = "accelerated-group-window-aggregate_1";
    static final String UID_NAME = "accelerated-group-window-aggregate";
    /** The managed-memory weight declared for the sidecar's state (stock's keeps it in keyed state). */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedGroupWindowExecNode(ReadableConfig config, GroupWindowSpec spec, int[] grouping,
            RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "group window aggregate", config, spec, grouping, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedGroupWindowOperator(spec());
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        GroupWindowSpec s = spec();
        return new AcceleratedGroupWindowExecNode(config, new GroupWindowSpec(descriptorJson, s.inputType(),
                s.rowtimeIndex(), s.pythonExecutable(), s.batchSize(), s.batchBytes(), s.sidecarTimeout(),
                s.arrowLimit()), keys().get(0), (RowType) getOutputType());
    }

    /**
     * {@code $time} is no column of the rows: the rows stage computes it from the rowtime (its epoch
     * millisecond, as the operator reads it per row), or, over processing time, leaves it for the
     * operator to stamp with the time the batch arrives.
     */
    @Override
    public JsonNode exchangeFields(JsonNode inputFields) {
        ArrayNode fields = (ArrayNode) inputFields.deepCopy();
        for (JsonNode field : fields) {
            if (GroupWindowExport.TIME.equals(field.path("name").asText())) {
                GroupWindowSpec s = spec();
                if (s.processingTime()) {
                    ((ObjectNode) field).put("arrival", true);
                } else {
                    ((ObjectNode) field).put("millis_of", s.inputType().getFieldNames().get(s.rowtimeIndex()));
                }
            }
        }
        return fields;
    }
}
