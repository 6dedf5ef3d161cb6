package org.flinkaccelerator.planner.replace;

import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSinkSpec;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSourceSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.segment.KafkaSegment;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;

/**
 * Builds the nodes that replace one Kafka segment: Flink's own Kafka source and sink over the
 * raw-value twins of the segment's tables, with an {@link AcceleratedExecNode} between them.
 * New nodes only; the original graph is not touched.
 */
public final class SegmentReplacement {
    private SegmentReplacement() {}

    /**
     * The sink node that ends the replacement of {@code segment}.
     *
     * @param valueFormat the value format of both tables (the one the descriptor decodes and encodes)
     */
    public static StreamExecSink build(KafkaSegment segment, String name, String descriptorJson, String valueFormat,
            ReadableConfig config) {
        ContextResolvedTable sourceTable = segment.source().getTableSourceSpec().getContextResolvedTable();
        ContextResolvedTable sinkTable = segment.sink().getTableSinkSpec().getContextResolvedTable();

        StreamExecTableSourceScan source = new StreamExecTableSourceScan(config,
                new DynamicTableSourceSpec(RawValueTables.of(sourceTable, valueFormat), List.of()),
                RawValueTables.ROW, "TableSourceScan(table=[" + sourceTable.getIdentifier().asSummaryString()
                        + "], fields=[value], format=[raw])");

        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec(name, descriptorJson,
                config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT));
        AcceleratedExecNode accelerated = new AcceleratedExecNode(config, spec);
        connect(source, accelerated);

        StreamExecSink sink = new StreamExecSink(config,
                new DynamicTableSinkSpec(RawValueTables.of(sinkTable, valueFormat), List.of(), null),
                ChangelogMode.insertOnly(), InputProperty.DEFAULT, RawValueTables.ROW, false,
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE_STRATEGY), null,
                "Sink(table=[" + sinkTable.getIdentifier().asSummaryString() + "], fields=[value], format=[raw])");
        connect(accelerated, sink);
        return sink;
    }

    private static void connect(ExecNode<?> from, ExecNodeBase<?> to) {
        to.setInputEdges(List.of(ExecEdge.builder().source(from).target(to).build()));
    }
}
