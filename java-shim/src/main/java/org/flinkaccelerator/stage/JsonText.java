package org.flinkaccelerator.stage;

import java.util.List;
import java.util.Map;

/**
 * Writes a tree of maps, lists, strings, numbers, booleans and nulls as JSON, two spaces per
 * level and one member per line, so golden files diff line by line (or on one line, for JSON that
 * travels inside a plan's string literal). Map order is kept as given; non-ASCII text is written
 * as is (the files are UTF-8).
 */
public final class JsonText {
    private JsonText() {}

    /** The JSON text of {@code value}, ending with a newline. */
    public static String pretty(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, "");
        return out.append('\n').toString();
    }

    /** The JSON text of {@code value} without any whitespace between tokens. */
    public static String compact(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value, null);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value, String indent) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote(out, (String) value);
        } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Double) {
            double d = (Double) value;
            if (Double.isFinite(d)) {
                out.append(d);
            } else {
                quote(out, Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity");
            }
        } else if (value instanceof Map) {
            writeObject(out, (Map<?, ?>) value, indent);
        } else if (value instanceof List) {
            writeArray(out, (List<?>) value, indent);
        } else {
            throw new IllegalArgumentException("no JSON form for " + value.getClass().getName());
        }
    }

    private static void writeObject(StringBuilder out, Map<?, ?> members, String indent) {
        if (members.isEmpty()) {
            out.append("{}");
            return;
        }
        String inner = indent == null ? null : indent + "  ";
        out.append(indent == null ? "{" : "{\n");
        int i = 0;
        for (Map.Entry<?, ?> member : members.entrySet()) {
            out.append(inner == null ? "" : inner);
            quote(out, (String) member.getKey());
            out.append(indent == null ? ":" : ": ");
            write(out, member.getValue(), inner);
            out.append(separator(++i < members.size(), indent));
        }
        out.append(indent == null ? "" : indent).append('}');
    }

    private static void writeArray(StringBuilder out, List<?> items, String indent) {
        if (items.isEmpty()) {
            out.append("[]");
            return;
        }
        String inner = indent == null ? null : indent + "  ";
        out.append(indent == null ? "[" : "[\n");
        for (int i = 0; i < items.size(); i++) {
            out.append(inner == null ? "" : inner);
            write(out, items.get(i), inner);
            out.append(separator(i + 1 < items.size(), indent));
        }
        out.append(indent == null ? "" : indent).append(']');
    }

    /** After a member or item: a comma before the next one, and a line break when pretty (indent not null). */
    private static String separator(boolean more, String indent) {
        return (more ? "," : "") + (indent == null ? "" : "\n");
    }

    private static void quote(StringBuilder out, String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
