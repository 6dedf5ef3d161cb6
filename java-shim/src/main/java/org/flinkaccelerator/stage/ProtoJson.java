package org.flinkaccelerator.stage;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.MessageOrBuilder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A protobuf message as a {@link JsonText} tree in protobuf's canonical JSON mapping (lowerCamelCase
 * names, 64-bit integers as strings, enums by name, bytes as base64, non-finite floats as strings,
 * unset fields left out), which
 * Python's {@code google.protobuf.json_format.Parse} reads back. Fields come in field-number order,
 * so the text is stable for golden files.
 */
public final class ProtoJson {
    private ProtoJson() {}

    public static Map<String, Object> tree(MessageOrBuilder message) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<FieldDescriptor, Object> field : message.getAllFields().entrySet()) {
            FieldDescriptor descriptor = field.getKey();
            if (descriptor.isMapField()) {
                throw new IllegalArgumentException("map fields are not used in stage plans: " + descriptor.getFullName());
            }
            Object value = field.getValue();
            if (descriptor.isRepeated()) {
                List<Object> items = new ArrayList<>();
                for (Object item : (List<?>) value) {
                    items.add(single(descriptor, item));
                }
                out.put(descriptor.getJsonName(), items);
            } else {
                out.put(descriptor.getJsonName(), single(descriptor, value));
            }
        }
        return out;
    }

    private static Object single(FieldDescriptor descriptor, Object value) {
        switch (descriptor.getJavaType()) {
            case MESSAGE: return tree((MessageOrBuilder) value);
            case ENUM: return ((EnumValueDescriptor) value).getName();
            case BYTE_STRING: return Base64.getEncoder().encodeToString(((ByteString) value).toByteArray());
            case LONG: return isUnsigned(descriptor)
                    ? Long.toUnsignedString((Long) value) : Long.toString((Long) value);
            case INT: return isUnsigned(descriptor)
                    ? (Object) Integer.toUnsignedLong((Integer) value) : value;
            case FLOAT: return ((Float) value).doubleValue();
            default: return value; // BOOLEAN, STRING, DOUBLE
        }
    }

    private static boolean isUnsigned(FieldDescriptor descriptor) {
        switch (descriptor.getType()) {
            case UINT32: case UINT64: case FIXED32: case FIXED64: return true;
            default: return false;
        }
    }
}
