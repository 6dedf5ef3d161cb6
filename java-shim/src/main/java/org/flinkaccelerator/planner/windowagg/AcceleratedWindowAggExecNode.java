package org.flinkaccelerator.planner.windowagg;

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
import org.flinkaccelerator.runtime.windowagg.AcceleratedWindowAggOperator;
import org.flinkaccelerator.runtime.windowagg.WindowAggSpec;

/**
 * The ExecNode of an accelerated window aggregate (docs/design/stateful-window-aggregate.md §2),
 * running {@link AcceleratedWindowAggOperator} with the stock window aggregate's managed-memory
 * weight, so the job graph, slot sharing and memory stay as stock. Its uid ends in
 * {@value #UID_NAME}, never stock's {@code window-aggregate}. {@code AccelerateWindowAggregates}
 * puts it in place of the stock node when {@code accelerator.window-aggregate.enabled} is set.
 */
public final class AcceleratedWindowAggExecNode extends SidecarStateExecNode<WindowAggSpec>
        implements BatchReadingNode {
    static final String CONTEXT = "accelerated-window-aggregate_1";
    static final String UID_NAME = "accelerated-window-aggregate";
    /** Stock's WINDOW_AGG_MEMORY_RATIO: the managed-memory weight its transformation declares. */
    static final long MEMORY_WEIGHT = 100L;

    public AcceleratedWindowAggExecNode(ReadableConfig config, WindowAggSpec spec, int[] grouping, RowType outputType) {
        super(CONTEXT, UID_NAME, MEMORY_WEIGHT, "window aggregate", config, spec, grouping, outputType);
    }

    @Override
    protected OneInputStreamOperator<RowData, RowData> createOperator() {
        return new AcceleratedWindowAggOperator(spec());
    }

    @Override
    public ExecNode<?> withDescriptor(String descriptorJson, ReadableConfig config) {
        WindowAggSpec s = spec();
        return new AcceleratedWindowAggExecNode(config, new WindowAggSpec(descriptorJson, s.inputType(), s.timeIndex(),
                s.pythonExecutable(), s.batchSize(), s.batchBytes(), s.sidecarTimeout(), s.arrowLimit()),
                keys().get(0), (RowType) getOutputType());
    }

    /**
     * {@code $time} is no column of the rows: the rows stage computes it from the rowtime (its epoch
     * millisecond, as the operator reads it per row; single phase) or takes the local phase's slice
     * end (global phase).
     */
    @Override
    public JsonNode exchangeFields(JsonNode inputFields) {
        ArrayNode fields = (ArrayNode) inputFields.deepCopy();
        WindowAggSpec s = spec();
        String time = s.inputType().getFieldNames().get(s.timeIndex());
        for (JsonNode field : fields) {
            if (WindowAggExport.TIME.equals(field.path("name").asText())) {
                ((ObjectNode) field).put(WindowAggSpec.GLOBAL.equals(s.phase()) ? "from" : "millis_of", time);
            }
        }
        return fields;
    }
}
