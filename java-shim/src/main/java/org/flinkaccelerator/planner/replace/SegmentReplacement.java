package org.flinkaccelerator.planner.replace;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.abilities.source.ReadingMetadataSpec;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNodeBase;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSinkSpec;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSourceSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.apache.flink.table.types.logical.RowType;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.segment.KafkaSegment;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.RecordCoordinates;

/**
 * Builds the nodes that replace one Kafka segment: Flink's own Kafka source and sink over the
 * raw-value twins of the segment's tables, with an {@link AcceleratedExecNode} between them. The
 * raw source reads the same Kafka metadata columns as the original one, after the value bytes,
 * and each message's partition and offset (and topic) after those ({@link CoordinateColumns});
 * a watermark pushed into the original source is not carried over (docs/architecture.md,
 * "Watermarks").
 * New nodes only; the original graph is not touched.
 */
public final class SegmentReplacement {
    private SegmentReplacement() {}

    /**
     * The sink node that ends the replacement of {@code segment}.
     *
     * @param sourceFormat the source table's value format (the one the descriptor decodes)
     * @param sinkFormat the sink table's value format (the one the descriptor encodes)
     */
    public static StreamExecSink build(KafkaSegment segment, String name, String descriptorJson, String sourceFormat,
            String sinkFormat, ReadableConfig config) {
        ContextResolvedTable sourceTable = segment.source().getTableSourceSpec().getContextResolvedTable();
        ContextResolvedTable sinkTable = segment.sink().getTableSinkSpec().getContextResolvedTable();

        List<String> metadataKeys = new ArrayList<>(metadataKeys(segment));
        RowType scanned = (RowType) segment.source().getOutputType();
        List<RowType.RowField> metadata = new ArrayList<>();
        for (int i = 0; i < metadataKeys.size(); i++) {
            int pos = scanned.getFieldCount() - metadataKeys.size() + i;
            metadata.add(new RowType.RowField(metadataKeys.get(i), scanned.getTypeAt(pos)));
        }
        boolean keyedSource = RawValueTables.hasKey(sourceTable);
        RecordCoordinates.Layout coordinates = CoordinateColumns.add(sourceTable,
                RawValueTables.row(keyedSource).getFieldCount(), metadataKeys, metadata);
        RowType sourceRow = RawValueTables.withMetadata(keyedSource, metadata);
        List<SourceAbilitySpec> abilities = metadataKeys.isEmpty() ? List.of()
                : List.of(new ReadingMetadataSpec(metadataKeys, sourceRow));
        StreamExecTableSourceScan source = new StreamExecTableSourceScan(config,
                new DynamicTableSourceSpec(RawValueTables.of(sourceTable, sourceFormat), abilities),
                sourceRow, "TableSourceScan(table=[" + sourceTable.getIdentifier().asSummaryString()
                        + "], fields=" + sourceRow.getFieldNames() + ", format=[raw])");

        AcceleratedSegmentSpec spec = new AcceleratedSegmentSpec(name, descriptorJson,
                config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                config.get(AcceleratorOptions.BATCH_MAX_DELAY), config.get(AcceleratorOptions.SIDECAR_TIMEOUT),
                config.get(AcceleratorOptions.SIDECAR_HEARTBEAT_INTERVAL), coordinates);
        AcceleratedExecNode accelerated = new AcceleratedExecNode(config, spec);
        connect(source, accelerated);

        StreamExecSink sink = new StreamExecSink(config,
                new DynamicTableSinkSpec(RawValueTables.of(sinkTable, sinkFormat), List.of(), null),
                ChangelogMode.insertOnly(), InputProperty.DEFAULT, RawValueTables.row(RawValueTables.hasKey(sinkTable)), false,
                config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_UPSERT_MATERIALIZE_STRATEGY), null,
                "Sink(table=[" + sinkTable.getIdentifier().asSummaryString() + "], fields=" + RawValueTables.row(RawValueTables.hasKey(sinkTable)).getFieldNames() + ", format=[raw])");
        connect(accelerated, sink);
        return sink;
    }

    /** The Kafka metadata keys the segment's source reads, in the order its row carries them. */
    private static List<String> metadataKeys(KafkaSegment segment) {
        for (SourceAbilitySpec ability : segment.source().getTableSourceSpec().getSourceAbilities()) {
            if (ability instanceof ReadingMetadataSpec) {
                return ((ReadingMetadataSpec) ability).getMetadataKeys();
            }
        }
        return List.of();
    }

    private static void connect(ExecNode<?> from, ExecNodeBase<?> to) {
        to.setInputEdges(List.of(ExecEdge.builder().source(from).target(to).build()));
    }
}
