package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.planner.plan.abilities.sink.WritingMetadataSpec;
import org.apache.flink.table.planner.plan.abilities.source.ProjectPushDownSpec;
import org.apache.flink.table.planner.plan.abilities.source.ReadingMetadataSpec;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.source.WatermarkPushDownSpec;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.flink.table.types.logical.utils.LogicalTypeUtils;
import org.flinkaccelerator.AcceleratorOptions;
import org.flinkaccelerator.planner.segment.KafkaSegment;
import org.flinkaccelerator.planner.substrait.CalcProgram;
import org.flinkaccelerator.planner.substrait.ExpressionConverter;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.flinkaccelerator.planner.substrait.NotReproducible;
import org.flinkaccelerator.planner.substrait.SegmentPlanBuilder;
import org.flinkaccelerator.planner.substrait.SubstraitTypes;
import org.flinkaccelerator.runtime.watermarks.WatermarkSpec;

/**
 * Exports a Kafka segment as a stage descriptor, checking every part of it (source and sink
 * options, source abilities, types, each Calc expression) and collecting every reason it cannot
 * be reproduced exactly. Reads the plan only; changes nothing.
 */
public final class StageExporter {
    /** The input column holding each message's value bytes. */
    static final String VALUE = "value";
    /** The input column holding each message's key bytes, when the source table reads keys. */
    static final String KEY = "key";
    private static final String BYTES = new VarBinaryType(VarBinaryType.MAX_LENGTH).asSerializableString();
    /**
     * Sink formats whose Flink serializers write a string as its Java string ({@code StringData.toString()}),
     * which is what an encode stage hands the sidecar ({@code runtime.arrow.JavaStrings}).
     */
    static final List<String> JAVA_STRING_FORMATS = List.of("json", "csv");

    private static final Set<LogicalTypeRoot> STRINGS = Set.of(LogicalTypeRoot.CHAR, LogicalTypeRoot.VARCHAR);

    private final SegmentPlanBuilder planBuilder;

    public StageExporter(FunctionRegistry registry) {
        this.planBuilder = new SegmentPlanBuilder(registry);
    }

    public StageExport export(KafkaSegment segment, ReadableConfig config) {
        ContextResolvedTable sourceTable = segment.source().getTableSourceSpec().getContextResolvedTable();
        ContextResolvedTable sinkTable = segment.sink().getTableSinkSpec().getContextResolvedTable();
        String name = sourceTable.getIdentifier().getObjectName() + "-to-" + sinkTable.getIdentifier().getObjectName();
        List<FallbackReason> reasons = new ArrayList<>();
        SourceSide source = sourceSide(segment.source(), false, reasons);
        RowType decoded = source.decoded();
        SinkSide sink = sinkSide(segment.sink(), config, reasons);

        // The Calc chain.
        List<CalcProgram> programs = new ArrayList<>();
        List<StreamExecCalc> calcs = segment.calcs();
        for (int i = 0; i < calcs.size(); i++) {
            programs.add(CalcPrograms.of(calcs.get(i), "calc " + (i + 1) + " of " + calcs.size()));
        }
        Plan plan = null;
        if (source.typesOk()) {
            try {
                plan = planBuilder.build(decoded, sink.withEnforcer(programs), sink.planNames(),
                        (RowType) segment.sink().getInputEdges().get(0).getOutputType());
            } catch (NotReproducible e) {
                reasons.add(new FallbackReason("calcs", e.getMessage()));
            }
        }
        if (!reasons.isEmpty()) {
            return new StageExport(name, null, reasons);
        }
        return new StageExport(name, new StageDescriptor(name, source.input(), source.decode(), source.decodeKey(),
                plan, sink.encode(), sink.encodeKey(), sink.output(), null, List.of(), sink.checks()), List.of());
    }

    /**
     * A Kafka sink and the Calcs before it as an encode stage ("decode": null, docs/architecture.md):
     * the sink and the longest suffix of {@code chain} that is reproduced exactly, over the rows of
     * the stock operator that feeds them. The export holds the reasons when not even the sink alone
     * can run accelerated; {@link EncodeExport#stoppedBy} says why the Calc before the suffix cannot.
     *
     * @param chain the Calcs before the sink, one after another, each the only consumer of the one before
     */
    public EncodeExport exportEncode(String name, List<StreamExecCalc> chain, StreamExecSink sinkNode,
            ReadableConfig config) {
        List<FallbackReason> reasons = new ArrayList<>();
        SinkSide sink = sinkSide(sinkNode, config, reasons);
        String sinkWhere = "sink " + sinkNode.getTableSinkSpec().getContextResolvedTable().getIdentifier().asSummaryString();
        for (FormatSpec spec : new FormatSpec[] {sink.encode(), sink.encodeKey() == null ? null : sink.encodeKey().format()}) {
            if (spec != null && !JAVA_STRING_FORMATS.contains(spec.format())) {
                reasons.add(new FallbackReason(sinkWhere, "encoding '" + spec.format() + "' rows of stock operators is"
                        + " not accelerated yet (only " + JAVA_STRING_FORMATS + ", whose serializers write each"
                        + " string as the Java string the sidecar is handed)"));
            }
        }
        // Each message gets the change kind of the row at its position: nothing may drop a row.
        boolean updating = UpsertKafkaSinks.updating(sinkNode);
        if (updating && sink.notNullFilter() != null) {
            reasons.add(new FallbackReason(sinkWhere, "the sink's NOT NULL columns drop rows ('"
                    + ExecutionConfigOptions.TABLE_EXEC_SINK_NOT_NULL_ENFORCER.key() + "' = DROP) of an updating input,"
                    + " whose change kinds the stage carries by position"));
        }
        if (!reasons.isEmpty()) {
            return EncodeExport.stock(new StageExport(name, null, reasons));
        }
        List<String> sinkFormats = new ArrayList<>(List.of(sink.encode().format()));
        if (sink.encodeKey() != null) {
            sinkFormats.add(sink.encodeKey().format().format());
        }
        RowType sinkInput = (RowType) sinkNode.getInputEdges().get(0).getOutputType();
        List<FallbackReason> stoppedBy = List.of();
        for (int first = 0; first <= chain.size(); first++) {
            List<FallbackReason> problems = new ArrayList<>();
            RowType input = proctimeNullable((RowType) (first == chain.size() ? sinkNode : chain.get(first))
                    .getInputEdges().get(0).getOutputType());
            RowsOutput.problems(input).forEach(p -> problems.add(new FallbackReason("input rows", p)));
            Plan plan = null;
            List<CalcProgram> programs = new ArrayList<>();
            if (problems.isEmpty()) {
                for (int i = first; i < chain.size(); i++) {
                    programs.add(CalcPrograms.of(chain.get(i), "calc " + (i + 1) + " of " + chain.size()));
                }
                if (updating) {
                    programs.stream().filter(p -> p.condition() != null).findFirst().ifPresent(p -> problems.add(
                            new FallbackReason("calcs", p.description() + " filters an updating input, whose change"
                                    + " kinds the stage carries by position (one message per row)")));
                }
                if (problems.isEmpty()) {
                    try {
                        plan = planBuilder.build(input, sink.withEnforcer(programs), sink.planNames(), sinkInput);
                    } catch (NotReproducible e) {
                        problems.add(new FallbackReason("calcs", e.getMessage()));
                    }
                }
            }
            nullableMapKeyProblems(input).forEach(p -> problems.add(new FallbackReason("input rows", p)));
            ExecNode<?> stock = (first == chain.size() ? sinkNode : chain.get(first)).getInputEdges().get(0).getSource();
            BitSet writtenMetadata = new BitSet();
            writtenMetadata.set(sink.row().getFieldCount(), sink.planNames().size());
            BitSet read = LoneSurrogateColumns.readByCalcs(programs, writtenMetadata);
            if (problems.isEmpty() && !StoredStrings.arriveFrom(stock)) {
                for (int c = read.nextSetBit(0); c >= 0; c = read.nextSetBit(c + 1)) {
                    if (holds(input.getTypeAt(c), STRINGS)) {
                        problems.add(new FallbackReason("calcs", "they read string column " + input.getFieldNames().get(c)
                                + ", which " + stock.getDescription() + " hands on as a Java string with no shuffle"
                                + " between; it may hold a lone UTF-16 surrogate, which the sidecar's functions do not read"));
                        break;
                    }
                }
            }
            if (problems.isEmpty()) {
                StageDescriptor descriptor = new StageDescriptor(name, RowsOutput.columns(input), null, null, plan,
                        sink.encode(), sink.encodeKey(), sink.output(), null, List.of(), sink.checks());
                return new EncodeExport(new StageExport(name, descriptor, List.of()), chain.size() - first, stoppedBy,
                        LoneSurrogateColumns.of(input.getFieldCount(), read, sinkFormats));
            }
            if (first == chain.size()) {
                return EncodeExport.stock(new StageExport(name, null, problems));
            }
            stoppedBy = problems;
        }
        throw new AssertionError("the loop returns at first == chain.size()");
    }

    /**
     * A stock operator's row holds NULL in a processing-time attribute column (the planner
     * materializes PROCTIME only where a value is read), whatever its NOT NULL type, so an encode
     * stage takes such a column as nullable.
     */
    static RowType proctimeNullable(RowType row) {
        List<RowType.RowField> fields = new ArrayList<>();
        for (RowType.RowField f : row.getFields()) {
            LogicalType t = f.getType();
            fields.add(LogicalTypeChecks.isProctimeAttribute(t) ? new RowType.RowField(f.getName(), t.copy(true)) : f);
        }
        return new RowType(row.isNullable(), fields);
    }

    /**
     * Why an encode stage cannot read these rows of a stock operator: a MAP whose key type is
     * nullable may hold a NULL key (MAP[NULL, 1] in a stock Calc), which an Arrow map cannot.
     */
    private static List<String> nullableMapKeyProblems(RowType input) {
        List<String> problems = new ArrayList<>();
        for (RowType.RowField field : input.getFields()) {
            if (hasNullableMapKey(field.getType())) {
                problems.add("column " + field.getName() + " (" + field.getType().asSummaryString() + "): a stock"
                        + " operator's map may hold a NULL key, which the sidecar's map layout cannot");
            }
        }
        return problems;
    }

    private static boolean hasNullableMapKey(LogicalType type) {
        return (type instanceof MapType && ((MapType) type).getKeyType().isNullable())
                || type.getChildren().stream().anyMatch(StageExporter::hasNullableMapKey);
    }

    /** Whether {@code type}, or a type nested in it, has one of {@code roots}. */
    private static boolean holds(LogicalType type, Set<LogicalTypeRoot> roots) {
        return roots.contains(type.getTypeRoot()) || type.getChildren().stream().anyMatch(t -> holds(t, roots));
    }

    /**
     * What a stage writes: the sink table's physical row, how it encodes the value (and the key:
     * {@code encodeKey}, else null), the output fields (value bytes, then key bytes, then the
     * written metadata columns, handed through) and the names of the plan's result columns (the
     * physical columns, then the written metadata keys); Flink's not-null enforcer as a last
     * filter (DROP, else null), and what the sidecar checks in each result row as Flink's sink does
     * (the NOT NULL columns under ERROR, then the rowtime).
     */
    private record SinkSide(RowType row, FormatSpec encode, KeySpec encodeKey, List<StageField> output,
            List<String> planNames, CalcProgram notNullFilter, SinkChecks checks) {
        /** The stage's programs: {@code calcs}, then the not-null enforcer's filter when it has one. */
        List<CalcProgram> withEnforcer(List<CalcProgram> calcs) {
            if (notNullFilter == null) {
                return calcs;
            }
            List<CalcProgram> out = new ArrayList<>(calcs);
            out.add(notNullFilter);
            return out;
        }
    }

    private static SinkSide sinkSide(StreamExecSink sink, ReadableConfig config, List<FallbackReason> reasons) {
        ContextResolvedTable sinkTable = sink.getTableSinkSpec().getContextResolvedTable();
        String sinkWhere = "sink " + sinkTable.getIdentifier().asSummaryString();
        // Sink: value format, abilities, constraints Flink enforces in the sink.
        RowType sinkRow = (RowType) sinkTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType().copy(true);
        KafkaValueFormat sinkFormat = format(sinkTable, "encoding", sinkWhere, reasons);
        KafkaKeyFormat sinkKey = keyFormat(sinkTable, "encoding", sinkWhere, reasons);
        RowType sinkValueRow = sinkKey == null ? sinkRow : sinkKey.valueRow(sinkRow);
        List<String> otherAbilities = sink.getTableSinkSpec().getSinkAbilities().stream()
                .filter(a -> !(a instanceof WritingMetadataSpec)).map(a -> a.getClass().getSimpleName())
                .collect(Collectors.toList());
        if (!otherAbilities.isEmpty()) {
            reasons.add(new FallbackReason(sinkWhere, "sink abilities " + otherAbilities + " are not accelerated yet"));
        }
        if (UpsertKafkaSinks.is(sink)) {
            if (!config.get(AcceleratorOptions.UPSERT_ENCODE_STAGES)) {
                reasons.add(new FallbackReason(sinkWhere, "an upsert-kafka sink becomes an encode stage only with '"
                        + AcceleratorOptions.UPSERT_ENCODE_STAGES.key() + "': true"));
            }
            UpsertKafkaSinks.problems(sink).forEach(p -> reasons.add(new FallbackReason(sinkWhere, p)));
        }
        WrittenMetadata metadata = WrittenMetadata.of(sink);
        for (String key : metadata.keys()) {
            if (sinkRow.getFieldNames().contains(key) || key.equals(VALUE) || key.equals(KEY)) {
                reasons.add(new FallbackReason(sinkWhere, "written metadata '" + key + "' has the name of a column"));
            }
        }
        checkTypes(new RowType(metadata.fields()), sinkWhere, reasons);
        RowType sinkInput = (RowType) sink.getInputEdges().get(0).getOutputType();
        String notNull = SinkNotNullColumns.problem(sinkRow, config);
        if (notNull != null) {
            reasons.add(new FallbackReason(sinkWhere, notNull));
        }
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_TYPE_LENGTH_ENFORCER)
                != ExecutionConfigOptions.TypeLengthEnforcer.IGNORE) {
            reasons.add(new FallbackReason(sinkWhere, "'" + ExecutionConfigOptions.TABLE_EXEC_SINK_TYPE_LENGTH_ENFORCER.key()
                    + "' is not IGNORE: Flink's length enforcer is not reproduced yet"));
        }
        checkTypes(sinkRow, sinkWhere, reasons);
        FormatSpec encode = null;
        if (sinkFormat != null) {
            FormatCheck checked = sinkFormat.check(sinkValueRow, false);
            checked.problems().forEach(p -> reasons.add(new FallbackReason(sinkWhere, p)));
            encode = new FormatSpec(null, sinkFormat.format(), checked.options(), sinkValueRow.asSerializableString());
        }
        KeySpec encodeKey = sinkKey == null ? null : keySpec(sinkKey, null, sinkRow, sinkWhere, reasons);
        List<StageField> output = new ArrayList<>(List.of(new StageField(VALUE, BYTES)));
        if (encodeKey != null) {
            output.add(new StageField(KEY, BYTES));
        }
        output.addAll(metadata.stageFields());
        List<String> planNames = new ArrayList<>(sinkRow.getFieldNames());
        planNames.addAll(metadata.keys());
        return new SinkSide(sinkRow, encode, encodeKey, output, planNames,
                SinkNotNullColumns.dropFilter(sinkRow, sinkInput, config), new SinkChecks(
                        SinkNotNullColumns.checked(sinkRow, config), SinkRowtimeColumn.of(sink, planNames, config)));
    }

    /**
     * A Kafka source and the Calcs after it as a rows stage ("encode": null, docs/architecture.md):
     * the source decoded once and, for each of its branches, the longest prefix of the branch's
     * Calcs that is reproduced exactly, whose output rows go on to stock Flink operators. The
     * first branch is the descriptor's {@code plan} and {@code output}, each other one an entry
     * of its {@code branches}. The export holds the reasons when not even the source alone can
     * run accelerated; each {@link RowsExport.Branch#stoppedBy} says why that branch's next Calc
     * cannot.
     *
     * @param branches per use of the source, the Calcs after it, one after another, each the only
     *     consumer of the one before
     */
    public RowsExport exportRows(String name, StreamExecTableSourceScan scan, List<List<StreamExecCalc>> branches) {
        List<FallbackReason> reasons = new ArrayList<>();
        SourceSide source = sourceSide(scan, true, reasons);
        String where = "source " + scan.getTableSourceSpec().getContextResolvedTable().getIdentifier().asSummaryString();
        RowType carrying = RowsOutput.withMessageColumn(source.decoded(), where, reasons);
        StageWatermark watermark = null;
        if (reasons.isEmpty() && source.watermark() != null) {
            watermark = watermarkSection(source.watermark(), carrying, where, reasons);
        }
        if (!reasons.isEmpty() || !source.typesOk()) {
            return new RowsExport(new StageExport(name, null, reasons), List.of(), null);
        }
        List<RowsExport.Branch> exported = new ArrayList<>();
        List<StageBranch> plans = new ArrayList<>();
        for (List<StreamExecCalc> chain : branches) {
            BranchPlan branch = exportBranch(scan, chain, carrying);
            if (branch.plan() == null) {
                return new RowsExport(new StageExport(name, null, branch.stoppedBy()), List.of(), null);
            }
            exported.add(new RowsExport.Branch(branch.calcs(), branch.stoppedBy(), branch.rows()));
            plans.add(new StageBranch(branch.plan(), RowsOutput.fields(branch.rows())));
        }
        StageDescriptor descriptor = new StageDescriptor(name, source.input(), source.decode(), source.decodeKey(),
                plans.get(0).plan(), null, null, plans.get(0).output(), watermark, plans.subList(1, plans.size()),
                SinkChecks.NONE);
        return new RowsExport(new StageExport(name, descriptor, List.of()), exported,
                source.watermark() == null ? null : source.watermark().spec());
    }

    /**
     * One branch of a rows stage: its plan over the decoded table {@code carrying}, the number of
     * its Calcs the plan runs and the rows it emits; {@code plan} is null (and {@code stoppedBy}
     * the reasons) when not even the source's own rows can be handed on.
     */
    private record BranchPlan(Plan plan, int calcs, List<FallbackReason> stoppedBy, RowType rows) {}

    private BranchPlan exportBranch(StreamExecTableSourceScan scan, List<StreamExecCalc> chain, RowType carrying) {
        List<FallbackReason> stoppedBy = List.of();
        for (int calcs = chain.size(); calcs >= 0; calcs--) {
            List<FallbackReason> problems = new ArrayList<>();
            RowType output = (RowType) (calcs == 0 ? scan : chain.get(calcs - 1)).getOutputType();
            String at = calcs == 0 ? "source rows" : "calc " + calcs + " of " + chain.size();
            RowsOutput.problems(output).forEach(p -> problems.add(new FallbackReason(at, p)));
            Plan plan = null;
            if (problems.isEmpty()) {
                List<CalcProgram> programs = new ArrayList<>();
                for (int i = 0; i < calcs; i++) {
                    programs.add(CalcPrograms.of(chain.get(i), "calc " + (i + 1) + " of " + chain.size()));
                }
                try {
                    plan = planBuilder.buildRows(carrying, programs, output, RowsOutput.MESSAGE);
                } catch (NotReproducible e) {
                    problems.add(new FallbackReason("calcs", e.getMessage()));
                }
            }
            if (problems.isEmpty()) {
                return new BranchPlan(plan, calcs, stoppedBy, output);
            }
            if (calcs == 0) {
                return new BranchPlan(null, 0, problems, output);
            }
            stoppedBy = problems;
        }
        throw new AssertionError("the loop returns at calcs == 0");
    }

    /** The watermark section of a rows stage: the expression's plan over the decoded table, or null with a reason. */
    private StageWatermark watermarkSection(SourceWatermark watermark, RowType carrying, String where,
            List<FallbackReason> reasons) {
        RowType column = RowType.of(new LogicalType[] {LogicalTypeUtils.removeTimeAttributes(
                ExpressionConverter.type(watermark.expression()))}, new String[] {SourceWatermark.COLUMN});
        try {
            Plan plan = planBuilder.buildRows(carrying,
                    List.of(new CalcProgram("the WATERMARK", List.of(watermark.expression()), null)), column,
                    RowsOutput.MESSAGE);
            return new StageWatermark(RowsOutput.fields(column), plan);
        } catch (NotReproducible e) {
            reasons.add(new FallbackReason(where, "the WATERMARK's expression: " + e.getMessage()));
            return null;
        }
    }

    /**
     * What a stage reads: the input fields (value, key, metadata), how it decodes them and the
     * decoded table's row. A watermark pushed into the scan is dropped by a whole segment's
     * replacement; a rows stage, whose rows go on to stock operators that may need it, generates
     * it ("Watermarks" in docs/architecture.md).
     */
    private record SourceSide(List<StageField> input, FormatSpec decode, KeySpec decodeKey, RowType decoded,
            boolean typesOk, SourceWatermark watermark) {}

    private static SourceSide sourceSide(StreamExecTableSourceScan scan, boolean rows, List<FallbackReason> reasons) {
        ContextResolvedTable sourceTable = scan.getTableSourceSpec().getContextResolvedTable();
        String sourceWhere = "source " + sourceTable.getIdentifier().asSummaryString();
        // Source: value format, abilities, decoded columns.
        FormatSpec decode = null;
        List<StageField> input = new ArrayList<>();
        KafkaValueFormat sourceFormat = format(sourceTable, "decoding", sourceWhere, reasons);
        KafkaKeyFormat sourceKey = keyFormat(sourceTable, "decoding", sourceWhere, reasons);
        List<String> metadataKeys = List.of();
        WatermarkPushDownSpec pushedWatermark = null;
        for (SourceAbilitySpec ability : scan.getTableSourceSpec().getSourceAbilities()) {
            if (ability instanceof ReadingMetadataSpec) {
                metadataKeys = ((ReadingMetadataSpec) ability).getMetadataKeys();
            } else if (ability instanceof WatermarkPushDownSpec) {
                // A whole segment drops it; a rows stage generates it (see "Watermarks" in docs/architecture.md).
                pushedWatermark = (WatermarkPushDownSpec) ability;
            } else if (!(ability instanceof ProjectPushDownSpec)) {
                reasons.add(new FallbackReason(sourceWhere, "source ability " + ability.getClass().getSimpleName()
                        + " is not accelerated yet"));
            }
        }
        RowType scanned = (RowType) scan.getOutputType();
        int physical = scanned.getFieldCount() - metadataKeys.size();
        List<RowType.RowField> decodedFields = new ArrayList<>(scanned.getFields().subList(0, physical));
        RowType physicalRow = new RowType(decodedFields);
        input.add(new StageField(VALUE, BYTES));
        if (sourceKey != null) {
            input.add(new StageField(KEY, BYTES));
            if (metadataKeys.contains(KEY)) {
                reasons.add(new FallbackReason(sourceWhere, "metadata 'key' has the name of the key bytes column"));
            }
        }
        for (int i = 0; i < metadataKeys.size(); i++) {
            String key = metadataKeys.get(i);
            LogicalType type = scanned.getTypeAt(physical + i);
            if (physicalRow.getFieldNames().contains(key)) {
                reasons.add(new FallbackReason(sourceWhere, "metadata '" + key + "' has the name of a value field"));
            }
            input.add(new StageField(key, type.asSerializableString()));
            decodedFields.add(new RowType.RowField(key, type));
        }
        RowType decoded = new RowType(decodedFields);
        boolean typesOk = checkTypes(decoded, sourceWhere, reasons);
        RowType valueRow = sourceKey == null ? physicalRow : sourceKey.valueRow(physicalRow);
        if (sourceFormat != null && KafkaValueFormat.WHOLE_ROW_DECODED.contains(sourceFormat.format())) {
            RowType tableRow = (RowType) sourceTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
            if (!tableRow.getFieldNames().equals(physicalRow.getFieldNames())) {
                reasons.add(new FallbackReason(sourceWhere, "the " + sourceFormat.format() + " source must decode its"
                        + " whole value row, not the projection " + physicalRow.getFieldNames()));
            }
        }
        if (sourceFormat != null) {
            FormatCheck checked = sourceFormat.check(valueRow, true);
            checked.problems().forEach(p -> reasons.add(new FallbackReason(sourceWhere, p)));
            decode = new FormatSpec(VALUE, sourceFormat.format(), checked.options(), valueRow.asSerializableString());
        }
        KeySpec decodeKey = null;
        if (sourceKey != null) {
            decodeKey = keySpec(sourceKey, KEY, physicalRow, sourceWhere, reasons);
        }
        SourceWatermark watermark = rows && pushedWatermark != null ? SourceWatermark.of(pushedWatermark,
                scan.getTableSourceSpec().getSourceAbilities(),
                (RowType) sourceTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType(), decoded, sourceWhere,
                reasons) : null;
        return new SourceSide(input, decode, decodeKey, decoded, typesOk, watermark);
    }

    private static KafkaValueFormat format(ContextResolvedTable table, String direction, String where,
            List<FallbackReason> reasons) {
        Map<String, String> options = table.getResolvedTable().getOptions();
        KafkaValueFormat format = KafkaValueFormat.of(options);
        if (format == null) {
            reasons.add(new FallbackReason(where, "no value format"));
        } else if (!KafkaValueFormat.ACCELERATED.contains(format.format())) {
            reasons.add(new FallbackReason(where, direction + " '" + format.format() + "' is not accelerated yet"));
        }
        return format;
    }

    /** The table's message key, or null; a key format the sidecar does not reproduce is a reason. */
    private static KafkaKeyFormat keyFormat(ContextResolvedTable table, String direction, String where,
            List<FallbackReason> reasons) {
        Map<String, String> options = table.getResolvedTable().getOptions();
        KafkaKeyFormat key = KafkaKeyFormat.of(UpsertKafkaSinks.keyOptions(table));
        if (key == null) {
            if (options.containsKey("key.fields")) {
                reasons.add(new FallbackReason(where, "'key.fields' without 'key.format'"));
            }
            return null;
        }
        if (!KafkaValueFormat.ACCELERATED.contains(key.format())) {
            reasons.add(new FallbackReason(where, "key " + direction + " '" + key.format() + "' is not accelerated yet"));
        }
        if (key.fields().isEmpty()) {
            reasons.add(new FallbackReason(where, "'key.format' without 'key.fields'"));
        }
        return key;
    }

    /** The key's spec for the descriptor, or null (with a reason) when its row cannot be reproduced. */
    private static KeySpec keySpec(KafkaKeyFormat key, String column, RowType physical, String where,
            List<FallbackReason> reasons) {
        RowType keyRow;
        try {
            keyRow = key.keyRow(physical);
        } catch (IllegalArgumentException e) {
            reasons.add(new FallbackReason(where, e.getMessage()));
            return null;
        }
        FormatCheck checked = new KafkaValueFormat(key.format(), key.options()).check(keyRow, column != null);
        checked.problems().forEach(p -> reasons.add(new FallbackReason(where, "key: " + p)));
        return key.spec(column, physical, checked.options(), EnvironmentInformation.getVersion());
    }

    /** True when every column has a Substrait type; otherwise adds a reason per column that has none. */
    private static boolean checkTypes(RowType row, String where, List<FallbackReason> reasons) {
        boolean ok = true;
        for (RowType.RowField field : row.getFields()) {
            try {
                SubstraitTypes.of(field.getType());
            } catch (NotReproducible e) {
                reasons.add(new FallbackReason(where, "column " + field.getName() + ": " + e.getMessage()));
                ok = false;
            }
        }
        return ok;
    }
}
