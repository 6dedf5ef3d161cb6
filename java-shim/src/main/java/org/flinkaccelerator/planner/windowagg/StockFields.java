package org.flinkaccelerator.planner.windowagg;

import java.lang.reflect.Field;

/**
 * Reads a private field of a stock exec node. Flink keeps what its stateful nodes pass to their
 * functions (a window aggregate's grouping, calls and windowing; a deduplication's or Top-N's keys
 * and flags) in fields without getters, so they are read reflectively, as the Calc programs are; a
 * Flink whose fields moved gives a {@link Missing} naming the field, and the node stays stock.
 */
public final class StockFields {
    private StockFields() {}

    /** A field the accelerator needs is not there; the message is the one-line stock reason. */
    public static final class Missing extends RuntimeException {
        Missing(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Whether this Flink's {@code owner} declares the field at all (a line without it has no such setting). */
    public static boolean has(Class<?> owner, String name) {
        try {
            owner.getDeclaredField(name);
            return true;
        } catch (NoSuchFieldException e) {
            return false;
        }
    }

    public static Object read(Object node, Class<?> owner, String name) {
        try {
            Field field = owner.getDeclaredField(name);
            field.setAccessible(true);
            return field.get(node);
        } catch (NoSuchFieldException | IllegalAccessException | RuntimeException e) {
            throw new Missing("Flink's " + owner.getSimpleName() + " has no readable field '" + name
                    + "' in this version, so the accelerator cannot read this node, which stays stock", e);
        }
    }
}
