package org.flinkaccelerator.planner.replace;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.abilities.sink.SinkAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.sink.WritingMetadataSpec;
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
import org.flinkaccelerator.planner.stage.UpsertKafkaSinks;
import org.flinkaccelerator.planner.stage.WrittenMetadata;
import org.flinkaccelerator.runtime.AcceleratedSegmentSpec;
import org.flinkaccelerator.runtime.RecordCoordinates;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * Builds the nodes that replace one Kafka segment: Flink's own Kafka source and sink over the
 * raw-value twins of the segment's tables, with an {@link AcceleratedExecNode} between them. The
 * raw source reads the same Kafka metadata columns as the original one, after the value bytes,
 * and each message's partition and offset (and topic) after those ({@link CoordinateColumns});
 * a watermark pushed into the original source is not carried over: a segment drops it, a rows
 * stage generates it in its operator (docs/architecture.md, "Watermarks"). A rows stage ({@link #buildRows}) is the raw source and the accelerated operator
 * only; its caller points the replaced nodes' consumers at the operator. An encode stage
 * ({@link #buildEncode}) is the accelerated operator, fed by a stock node, and the raw sink; one
 * fused into the accelerated keyed operator before it ({@link #buildFusedEncode}) is that
 * operator's encoding copy and the raw sink.
 * New nodes only; the original graph is not touched here.
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
        RawSource source = rawSource(segment.source(), sourceFormat, config);
        AcceleratedExecNode accelerated = new AcceleratedExecNode(config,
                spec(name, descriptorJson, source.coordinates(), List.of(), null, null, null, config));
        connect(source.node(), accelerated);
        return rawSink(segment.sink(), sinkFormat, accelerated, config);
    }

    /**
     * The sink node that ends the replacement of an encode stage: the accelerated operator reads
     * what {@code input} carries (the rows of the stock operator that fed the replaced nodes, of
     * type {@code rows}) and feeds the sink's raw-value twin; strings in its columns
     * {@code keepsLoneSurrogates} may carry lone surrogates. The raw sink of an upsert-kafka sink
     * takes the changelog the original took, each row with the change kind of the row it encodes.
     * {@code soleConsumer}: the stage is the only consumer of {@code input}'s source.
     */
    public static StreamExecSink buildEncode(ExecEdge input, boolean soleConsumer, StreamExecSink original, String name,
            String descriptorJson, String sinkFormat, BitSet keepsLoneSurrogates, ReadableConfig config) {
        AcceleratedExecNode accelerated = new AcceleratedExecNode(config, spec(name, descriptorJson,
                RecordCoordinates.Layout.NONE, List.of(), (RowType) input.getOutputType(), keepsLoneSurrogates, null, config),
                soleConsumer);
        accelerated.setInputEdges(List.of(ExecEdge.builder().source(input.getSource()).target(accelerated)
                .shuffle(input.getShuffle()).exchangeMode(input.getExchangeMode()).build()));
        return rawSink(original, sinkFormat, accelerated, config);
    }

    /**
     * The sink node that ends an encode stage fused into the accelerated operator it read
     * ({@link MessageEncodingNode}): {@code feeder}'s copy that encodes the messages, reading what
     * {@code feeder} read, feeds the sink's raw-value twin as the encode stage did.
     */
    public static StreamExecSink buildFusedEncode(ExecNode<?> feeder, MessageEncodingNode encoding, StreamExecSink original,
            String descriptorJson, String sinkFormat, ReadableConfig config) {
        ExecNodeBase<?> fused = (ExecNodeBase<?>) encoding.encoding(descriptorJson, config);
        List<ExecEdge> inputs = new ArrayList<>();
        for (ExecEdge edge : feeder.getInputEdges()) {
            inputs.add(ExecEdge.builder().source(edge.getSource()).target(fused).shuffle(edge.getShuffle())
                    .exchangeMode(edge.getExchangeMode()).build());
        }
        fused.setInputEdges(inputs);
        return rawSink(original, sinkFormat, fused, config);
    }

    private static StreamExecSink rawSink(StreamExecSink original, String sinkFormat, ExecNode<?> input,
            ReadableConfig config) {
        ContextResolvedTable sinkTable = original.getTableSinkSpec().getContextResolvedTable();
        WrittenMetadata written = WrittenMetadata.of(original);
        RowType row = written.after(RawValueTables.row(RawValueTables.hasKey(sinkTable)));
        List<SinkAbilitySpec> abilities = written.isEmpty() ? List.of()
                : List.of(new WritingMetadataSpec(written.keys(), row));
        StreamExecSink sink = StreamExecSinkConstructor.create(original, config,
                new DynamicTableSinkSpec(RawValueTables.of(sinkTable, sinkFormat, written), abilities, null),
                UpsertKafkaSinks.is(original) ? UpsertKafkaSinks.inputChangelogMode(original) : ChangelogMode.insertOnly(),
                InputProperty.DEFAULT, row, false, null,
                "Sink(table=[" + sinkTable.getIdentifier().asSummaryString() + "], fields=" + row.getFieldNames()
                        + ", format=[raw])");
        connect(input, sink);
        return sink;
    }

    /**
     * The accelerated operator that replaces a Kafka source (and the Calcs after it) of a rows
     * stage, over the source's raw-value twin: it emits the rows of each branch, of {@code rows}
     * (one type per branch, the type the branch's consumers read), the first branch's on its main
     * output and each other one's on a side output ({@link #branchOf}), and, with
     * {@code watermarks} (else null), the watermarks of the original source's pushed-down
     * {@code WATERMARK}.
     */
    public static AcceleratedExecNode buildRows(StreamExecTableSourceScan original, String name, String descriptorJson,
            String sourceFormat, List<RowType> rows, WatermarkSpec watermarks, ReadableConfig config) {
        RawSource source = rawSource(original, sourceFormat, config);
        AcceleratedExecNode accelerated = new AcceleratedExecNode(config, spec(name, descriptorJson,
                source.coordinates(), rows, null, null, watermarks, config));
        connect(source.node(), accelerated);
        return accelerated;
    }

    /** The node whose rows are branch {@code branch} of a rows stage: the stage itself for 0, else its side output. */
    public static ExecNode<?> branchOf(AcceleratedExecNode rowsStage, int branch, ReadableConfig config) {
        if (branch == 0) {
            return rowsStage;
        }
        SideOutputExecNode side = new SideOutputExecNode(config, rowsStage.spec().sideOutput(branch),
                rowsStage.spec().sideRows().get(branch - 1), branch);
        connect(rowsStage, side);
        return side;
    }

    /** A raw-value source and where its rows carry each message's coordinates. */
    private record RawSource(StreamExecTableSourceScan node, RecordCoordinates.Layout coordinates) {}

    private static RawSource rawSource(StreamExecTableSourceScan original, String sourceFormat, ReadableConfig config) {
        ContextResolvedTable sourceTable = original.getTableSourceSpec().getContextResolvedTable();
        List<String> metadataKeys = new ArrayList<>(metadataKeys(original));
        RowType scanned = (RowType) original.getOutputType();
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
        source.setInputEdges(List.of()); // as Flink's own sources: walking the graph reads every node's edges
        return new RawSource(source, coordinates);
    }

    /** @param rows a rows stage's row type per branch (empty for the other stages) */
    private static AcceleratedSegmentSpec spec(String name, String descriptorJson, RecordCoordinates.Layout coordinates,
            List<RowType> rows, RowType consumes, BitSet keepsLoneSurrogates, WatermarkSpec watermarks,
            ReadableConfig config) {
        return new AcceleratedSegmentSpec(name, descriptorJson,
                config.get(AcceleratorOptions.PYTHON_EXECUTABLE), config.get(AcceleratorOptions.BATCH_SIZE),
                config.get(AcceleratorOptions.BATCH_MAX_BYTES).getBytes(), config.get(AcceleratorOptions.BATCH_MAX_DELAY),
                config.get(AcceleratorOptions.SIDECAR_TIMEOUT), config.get(AcceleratorOptions.SIDECAR_HEARTBEAT_INTERVAL),
                coordinates, rows.isEmpty() ? null : rows.get(0), consumes, keepsLoneSurrogates, watermarks,
                rows.isEmpty() ? List.of() : rows.subList(1, rows.size()),
                config.get(AcceleratorOptions.MEMORY_ARROW_LIMIT).getBytes());
    }

    /** The Kafka metadata keys the source reads, in the order its row carries them. */
    private static List<String> metadataKeys(StreamExecTableSourceScan source) {
        for (SourceAbilitySpec ability : source.getTableSourceSpec().getSourceAbilities()) {
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
