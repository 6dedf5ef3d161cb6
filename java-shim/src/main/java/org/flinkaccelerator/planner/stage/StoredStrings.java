package org.flinkaccelerator.planner.stage;

import java.util.Map;
import java.util.Set;
import org.apache.flink.table.planner.plan.nodes.exec.ExecEdge;
import org.apache.flink.table.planner.plan.nodes.exec.ExecNode;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecChangelogNormalize;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDeduplicate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecDropUpdateBefore;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecExchange;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGlobalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecGroupWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecIncrementalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecIntervalJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLimit;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalGroupAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecLocalWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecMiniBatchAssigner;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecRank;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSortLimit;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecTableSourceScan;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecUnion;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWatermarkAssigner;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowAggregate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowDeduplicate;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowJoin;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecWindowRank;
import org.flinkaccelerator.planner.replace.AcceleratedExecNode;

/**
 * Whether the strings of a stock operator's rows hold no lone UTF-16 surrogate. A Java string
 * made by a decoder or a string function (Flink's LPAD or SUBSTRING can cut an emoji in two) may
 * hold a lone UTF-16 surrogate, and travels as that Java string to operators chained after it;
 * a shuffle serializes it, leaving '?' in its place. The operators here hand on the strings they
 * received and make none of their own; a source whose formats decode text from UTF-8 (raw, avro,
 * protobuf) and an accelerated stage (its strings are UTF-8) make none with a lone surrogate;
 * anything else (a json or csv decoder, which reads escapes, a Calc, a table function, an operator
 * not listed) may hand one on.
 */
final class StoredStrings {
    private static final Set<Class<?>> HANDING_ON = Set.of(StreamExecJoin.class, StreamExecIntervalJoin.class,
            StreamExecWindowJoin.class, StreamExecGroupAggregate.class, StreamExecLocalGroupAggregate.class,
            StreamExecGlobalGroupAggregate.class, StreamExecIncrementalGroupAggregate.class,
            StreamExecGroupWindowAggregate.class, StreamExecWindowAggregate.class, StreamExecLocalWindowAggregate.class,
            StreamExecGlobalWindowAggregate.class, StreamExecDeduplicate.class, StreamExecWindowDeduplicate.class,
            StreamExecRank.class, StreamExecWindowRank.class, StreamExecSortLimit.class, StreamExecLimit.class,
            StreamExecChangelogNormalize.class, StreamExecDropUpdateBefore.class, StreamExecWatermarkAssigner.class,
            StreamExecMiniBatchAssigner.class, StreamExecUnion.class);

    /** Formats whose decoders make strings from UTF-8 or Latin-1 text, never with a lone surrogate. */
    private static final Set<String> WELL_FORMED_FORMATS = Set.of("raw", "avro", "avro-confluent", "protobuf");
    private static final Set<String> FORMAT_OPTIONS = Set.of("format", "value.format", "key.format");

    private StoredStrings() {}

    /** True when every string of {@code node}'s rows crossed a shuffle since an operator made it. */
    static boolean arriveFrom(ExecNode<?> node) {
        if (node instanceof StreamExecExchange || node instanceof AcceleratedExecNode) {
            return true;
        }
        if (node instanceof StreamExecTableSourceScan scan) {
            Map<String, String> options = scan.getTableSourceSpec().getContextResolvedTable().getResolvedTable().getOptions();
            boolean anyFormat = false;
            for (String key : FORMAT_OPTIONS) {
                String format = options.get(key);
                if (format != null && !WELL_FORMED_FORMATS.contains(format)) {
                    return false;
                }
                anyFormat |= format != null;
            }
            return anyFormat;
        }
        if (!HANDING_ON.contains(node.getClass()) || node.getInputEdges().isEmpty()) {
            return false;
        }
        for (ExecEdge edge : node.getInputEdges()) {
            if (!arriveFrom(edge.getSource())) {
                return false;
            }
        }
        return true;
    }
}
