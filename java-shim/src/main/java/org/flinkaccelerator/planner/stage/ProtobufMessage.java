package org.flinkaccelerator.planner.stage;

import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors;
import com.google.protobuf.InvalidProtocolBufferException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The protobuf message a table's {@code protobuf.message-class-name} names, as the sidecar needs it:
 * its full protobuf name and a serialized FileDescriptorSet of its file and every file that file
 * imports, dependencies first (what {@code protoc --include_imports} writes).
 *
 * <p>The generated class is loaded as flink-protobuf's {@code PbFormatUtils.getDescriptor} loads it
 * (by name, through the thread's context class loader), and read by reflection: it runs on the
 * user's protobuf runtime, never the one bundled (relocated) in this jar. Each file's descriptor
 * bytes are copied as the class embeds them; they are then built again with the bundled runtime
 * ({@link #descriptor}) so the row checks can walk the message.
 */
record ProtobufMessage(String className, String fullName, byte[] descriptorSet, boolean proto3,
        Descriptors.Descriptor descriptor) {
    /** The file syntaxes the sidecar reproduces ("" is proto2 as protoc writes it). */
    private static final Set<String> SYNTAXES = Set.of("", "proto2", "proto3");

    /** The class cannot be loaded or read, or its files are ones the accelerator does not reproduce. */
    static final class Unavailable extends Exception {
        Unavailable(String message) {
            super(message);
        }
    }

    static ProtobufMessage load(String className, ClassLoader loader) throws Unavailable {
        Class<?> generated;
        try {
            generated = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new Unavailable("protobuf message class '" + className + "' cannot be loaded at planning time ("
                    + e + "); put the jar holding it on Flink's classpath (stock Flink needs it there too)");
        }
        Object descriptor;
        try {
            descriptor = generated.getMethod("getDescriptor").invoke(null);
        } catch (NoSuchMethodException | IllegalAccessException | NullPointerException e) {
            throw new Unavailable("'" + className + "' is not a generated protobuf message class (it has no public"
                    + " static getDescriptor())");
        } catch (InvocationTargetException e) {
            throw new Unavailable("'" + className + "'.getDescriptor() failed: " + e.getCause());
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        String fullName;
        String topFile;
        try {
            fullName = (String) call(descriptor, "getFullName");
            Object file = call(descriptor, "getFile");
            topFile = (String) call(file, "getName");
            collect(file, files);
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new Unavailable("the descriptor of '" + className + "' cannot be read (" + e
                    + "); is it a protobuf-java generated message class?");
        }
        return build(className, fullName, topFile, files);
    }

    /** The file's dependencies (depth first), then the file itself, each once. */
    private static void collect(Object file, Map<String, byte[]> out) throws ReflectiveOperationException {
        String name = (String) call(file, "getName");
        if (out.containsKey(name)) {
            return;
        }
        for (Object dependency : (List<?>) call(file, "getDependencies")) {
            collect(dependency, out);
        }
        out.put(name, (byte[]) call(call(file, "toProto"), "toByteArray"));
    }

    private static Object call(Object target, String method) throws ReflectiveOperationException {
        return target.getClass().getMethod(method).invoke(target);
    }

    private static ProtobufMessage build(String className, String fullName, String topFile, Map<String, byte[]> files)
            throws Unavailable {
        ByteArrayOutputStream set = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(set);
        Map<String, Descriptors.FileDescriptor> built = new HashMap<>();
        boolean proto3 = false;
        try {
            List<FileDescriptorProto> protos = new ArrayList<>();
            for (Map.Entry<String, byte[]> file : files.entrySet()) {
                FileDescriptorProto proto = FileDescriptorProto.parseFrom(file.getValue());
                if (!SYNTAXES.contains(proto.getSyntax())) {
                    throw new Unavailable(file.getKey() + " (imported by the message '" + fullName + "') uses syntax '"
                            + proto.getSyntax() + "'; only proto2 and proto3 files are accelerated");
                }
                protos.add(proto);
                out.writeByteArray(1, file.getValue()); // FileDescriptorSet.file, the bytes as the class embeds them
            }
            out.flush();
            for (FileDescriptorProto proto : protos) {
                Descriptors.FileDescriptor[] dependencies = proto.getDependencyList().stream().map(built::get)
                        .toArray(Descriptors.FileDescriptor[]::new);
                built.put(proto.getName(), Descriptors.FileDescriptor.buildFrom(proto, dependencies));
                proto3 |= proto.getName().equals(topFile) && proto.getSyntax().equals("proto3");
            }
        } catch (InvalidProtocolBufferException | Descriptors.DescriptorValidationException | RuntimeException e) {
            throw new Unavailable("the descriptor of '" + className + "' cannot be rebuilt by the accelerator (" + e + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Descriptors.Descriptor message = find(built.get(topFile), fullName);
        if (message == null) {
            throw new Unavailable("message '" + fullName + "' of '" + className + "' is not in its file " + topFile);
        }
        return new ProtobufMessage(className, fullName, set.toByteArray(), proto3, message);
    }

    /** The message of that full name (package.Outer.Inner) in the file, or null. */
    private static Descriptors.Descriptor find(Descriptors.FileDescriptor file, String fullName) {
        String prefix = file.getPackage().isEmpty() ? "" : file.getPackage() + ".";
        if (!fullName.startsWith(prefix)) {
            return null;
        }
        String[] path = fullName.substring(prefix.length()).split("\\.");
        Descriptors.Descriptor found = file.findMessageTypeByName(path[0]);
        for (int i = 1; i < path.length && found != null; i++) {
            found = found.findNestedTypeByName(path[i]);
        }
        return found;
    }
}
