package org.flinkaccelerator.planner.stage;

import io.substrait.proto.Plan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.api.config.ExecutionConfigOptions;
import org.apache.flink.table.catalog.ContextResolvedTable;
import org.apache.flink.table.planner.plan.abilities.source.ProjectPushDownSpec;
import org.apache.flink.table.planner.plan.abilities.source.ReadingMetadataSpec;
import org.apache.flink.table.planner.plan.abilities.source.SourceAbilitySpec;
import org.apache.flink.table.planner.plan.abilities.source.WatermarkPushDownSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecCalc;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.flinkaccelerator.planner.segment.KafkaSegment;
import org.flinkaccelerator.planner.substrait.CalcProgram;
import org.flinkaccelerator.planner.substrait.FunctionRegistry;
import org.flinkaccelerator.planner.substrait.NotReproducible;
import org.flinkaccelerator.planner.substrait.SegmentPlanBuilder;
import org.flinkaccelerator.planner.substrait.SubstraitTypes;

/**
 * Exports a Kafka segment as a stage descriptor, checking every part of it (source and sink
 * options, source abilities, types, each Calc expression) and collecting every reason it cannot
 * be reproduced exactly. Reads the plan only; changes nothing.
 */
public final class StageExporter {
    /** The input column holding each message's value bytes. */
    static final String VALUE = "value";
    private static final String BYTES = new VarBinaryType(VarBinaryType.MAX_LENGTH).asSerializableString();

    private final SegmentPlanBuilder planBuilder;

    public StageExporter(FunctionRegistry registry) {
        this.planBuilder = new SegmentPlanBuilder(registry);
    }

    public StageExport export(KafkaSegment segment, ReadableConfig config) {
        ContextResolvedTable sourceTable = segment.source().getTableSourceSpec().getContextResolvedTable();
        ContextResolvedTable sinkTable = segment.sink().getTableSinkSpec().getContextResolvedTable();
        String name = sourceTable.getIdentifier().getObjectName() + "-to-" + sinkTable.getIdentifier().getObjectName();
        String sourceWhere = "source " + sourceTable.getIdentifier().asSummaryString();
        String sinkWhere = "sink " + sinkTable.getIdentifier().asSummaryString();
        List<FallbackReason> reasons = new ArrayList<>();

        // Source: value format, abilities, decoded columns.
        FormatSpec decode = null;
        List<StageField> input = new ArrayList<>();
        KafkaValueFormat sourceFormat = format(sourceTable, "decoding", sourceWhere, reasons);
        List<String> metadataKeys = List.of();
        for (SourceAbilitySpec ability : segment.source().getTableSourceSpec().getSourceAbilities()) {
            if (ability instanceof ReadingMetadataSpec) {
                metadataKeys = ((ReadingMetadataSpec) ability).getMetadataKeys();
            } else if (ability instanceof WatermarkPushDownSpec) {
                // Dropped by the replacement: see "Watermarks" in docs/architecture.md.
                continue;
            } else if (!(ability instanceof ProjectPushDownSpec)) {
                reasons.add(new FallbackReason(sourceWhere, "source ability " + ability.getClass().getSimpleName()
                        + " is not accelerated yet"));
            }
        }
        RowType scanned = (RowType) segment.source().getOutputType();
        int physical = scanned.getFieldCount() - metadataKeys.size();
        List<RowType.RowField> decodedFields = new ArrayList<>(scanned.getFields().subList(0, physical));
        RowType physicalRow = new RowType(decodedFields);
        input.add(new StageField(VALUE, BYTES));
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
        boolean decodedTypesOk = checkTypes(decoded, sourceWhere, reasons);
        if (sourceFormat != null && KafkaValueFormat.WHOLE_ROW_DECODED.contains(sourceFormat.format())) {
            RowType valueRow = (RowType) sourceTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType();
            if (!valueRow.getFieldNames().equals(physicalRow.getFieldNames())) {
                reasons.add(new FallbackReason(sourceWhere, "the " + sourceFormat.format() + " source must decode its"
                        + " whole value row, not the projection " + physicalRow.getFieldNames()));
            }
        }
        if (sourceFormat != null) {
            sourceFormat.problems(physicalRow, true).forEach(p -> reasons.add(new FallbackReason(sourceWhere, p)));
        }
        if (sourceFormat != null) {
            decode = new FormatSpec(VALUE, sourceFormat.format(), sourceFormat.options(), physicalRow.asSerializableString());
        }

        // Sink: value format, abilities, constraints Flink enforces in the sink.
        RowType sinkRow = (RowType) sinkTable.getResolvedSchema().toPhysicalRowDataType().getLogicalType().copy(true);
        KafkaValueFormat sinkFormat = format(sinkTable, "encoding", sinkWhere, reasons);
        if (!segment.sink().getTableSinkSpec().getSinkAbilities().isEmpty()) {
            reasons.add(new FallbackReason(sinkWhere, "sink abilities " + segment.sink().getTableSinkSpec().getSinkAbilities()
                    .stream().map(a -> a.getClass().getSimpleName()).collect(Collectors.toList())
                    + " (e.g. writing metadata) are not accelerated yet"));
        }
        if (sinkRow.getChildren().stream().anyMatch(t -> !t.isNullable())) {
            reasons.add(new FallbackReason(sinkWhere, "NOT NULL sink columns: Flink's not-null enforcer is not reproduced yet"));
        }
        if (config.get(ExecutionConfigOptions.TABLE_EXEC_SINK_TYPE_LENGTH_ENFORCER)
                != ExecutionConfigOptions.TypeLengthEnforcer.IGNORE) {
            reasons.add(new FallbackReason(sinkWhere, "'" + ExecutionConfigOptions.TABLE_EXEC_SINK_TYPE_LENGTH_ENFORCER.key()
                    + "' is not IGNORE: Flink's length enforcer is not reproduced yet"));
        }
        checkTypes(sinkRow, sinkWhere, reasons);
        if (sinkFormat != null) {
            sinkFormat.problems(sinkRow, false).forEach(p -> reasons.add(new FallbackReason(sinkWhere, p)));
        }
        FormatSpec encode = sinkFormat == null ? null
                : new FormatSpec(null, sinkFormat.format(), sinkFormat.options(), sinkRow.asSerializableString());

        // The Calc chain.
        List<CalcProgram> programs = new ArrayList<>();
        List<StreamExecCalc> calcs = segment.calcs();
        for (int i = 0; i < calcs.size(); i++) {
            programs.add(CalcPrograms.of(calcs.get(i), "calc " + (i + 1) + " of " + calcs.size()));
        }
        Plan plan = null;
        if (decodedTypesOk) {
            try {
                plan = planBuilder.build(decoded, programs, sinkRow.getFieldNames(),
                        (RowType) segment.sink().getInputEdges().get(0).getOutputType());
            } catch (NotReproducible e) {
                reasons.add(new FallbackReason("calcs", e.getMessage()));
            }
        }
        if (!reasons.isEmpty()) {
            return new StageExport(name, null, reasons);
        }
        List<StageField> output = List.of(new StageField(VALUE, BYTES));
        return new StageExport(name, new StageDescriptor(name, input, decode, plan, encode, output), List.of());
    }

    private static KafkaValueFormat format(ContextResolvedTable table, String direction, String where,
            List<FallbackReason> reasons) {
        Map<String, String> options = table.getResolvedTable().getOptions();
        String keyProblem = KafkaValueFormat.keyProblem(options);
        if (keyProblem != null) {
            reasons.add(new FallbackReason(where, keyProblem));
        }
        KafkaValueFormat format = KafkaValueFormat.of(options);
        if (format == null) {
            reasons.add(new FallbackReason(where, "no value format"));
        } else if (!KafkaValueFormat.ACCELERATED.contains(format.format())) {
            reasons.add(new FallbackReason(where, direction + " '" + format.format() + "' is not accelerated yet"));
        }
        return format;
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
