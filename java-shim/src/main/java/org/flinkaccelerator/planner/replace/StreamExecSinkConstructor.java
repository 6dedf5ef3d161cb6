package org.flinkaccelerator.planner.replace;

import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.planner.plan.nodes.exec.InputProperty;
import org.apache.flink.table.planner.plan.nodes.exec.spec.DynamicTableSinkSpec;
import org.apache.flink.table.planner.plan.nodes.exec.stream.StreamExecSink;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Creates a {@link StreamExecSink} on every supported Flink release, whose constructors differ:
 * 2.3 added an {@code InsertConflictStrategy} parameter that 2.2 does not have, and the 2.x line
 * takes an upsert materialize strategy that 1.20 does not ({@link SinkParametersOfThisLine}). The running
 * release's constructor (the one that starts with the {@link ReadableConfig}) is found by its
 * parameter list; each parameter this build passes is matched by type, and any other one is
 * carried over from the node being replaced (its field of that type), so the new sink behaves as
 * the original on whatever the newer release added.
 */
final class StreamExecSinkConstructor {
    private static final Constructor<?> CONSTRUCTOR = find(StreamExecSink.class);

    private StreamExecSinkConstructor() {}

    /** The sink node; {@code original} is the stock sink it replaces, the source of any newer parameter. */
    static StreamExecSink create(StreamExecSink original, ReadableConfig config, DynamicTableSinkSpec spec,
            ChangelogMode changelogMode, InputProperty input, LogicalType outputType, boolean upsertMaterialize,
            int[] inputUpsertKey, String description) {
        Map<Class<?>, Object> known = new LinkedHashMap<>();
        known.put(ReadableConfig.class, config);
        known.put(DynamicTableSinkSpec.class, spec);
        known.put(ChangelogMode.class, changelogMode);
        known.put(InputProperty.class, input);
        known.put(LogicalType.class, outputType);
        known.put(boolean.class, upsertMaterialize);
        known.putAll(SinkParametersOfThisLine.of(config));
        known.put(int[].class, inputUpsertKey);
        known.put(String.class, description);
        return (StreamExecSink) construct(CONSTRUCTOR, original, known);
    }

    /**
     * Calls {@code constructor} with the value of {@code known} for each parameter of a type it
     * holds, and for any other parameter the value of {@code original}'s one field of that type.
     */
    static Object construct(Constructor<?> constructor, Object original, Map<Class<?>, Object> known) {
        Class<?>[] types = constructor.getParameterTypes();
        Object[] args = new Object[types.length];
        for (int i = 0; i < types.length; i++) {
            args[i] = known.containsKey(types[i]) ? known.get(types[i]) : carriedOver(constructor, original, types[i]);
        }
        try {
            return constructor.newInstance(args);
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot create the raw-value sink node with " + constructor
                    + "; this Flink release's StreamExecSink is not one flink-accelerator supports", e);
        }
    }

    private static Object carriedOver(Constructor<?> constructor, Object original, Class<?> type) {
        Field[] matching = Arrays.stream(constructor.getDeclaringClass().getDeclaredFields())
                .filter(f -> f.getType() == type).toArray(Field[]::new);
        if (matching.length != 1) {
            throw new IllegalStateException(constructor + " takes a " + type.getName()
                    + " that flink-accelerator cannot carry over from the replaced sink (" + matching.length
                    + " fields of that type); this Flink release is not one flink-accelerator supports");
        }
        matching[0].setAccessible(true);
        try {
            return matching[0].get(original);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + matching[0] + " of the replaced sink", e);
        }
    }

    /** The public constructor of {@code sinkClass} that starts with a {@link ReadableConfig}. */
    static Constructor<?> find(Class<?> sinkClass) {
        return Arrays.stream(sinkClass.getConstructors())
                .filter(c -> c.getParameterCount() > 0 && c.getParameterTypes()[0] == ReadableConfig.class)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException(sinkClass.getName()
                        + " has no constructor that starts with a ReadableConfig; this Flink release is not one"
                        + " flink-accelerator supports"));
    }
}
