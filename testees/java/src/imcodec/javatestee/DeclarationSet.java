package imcodec.javatestee;

import com.google.protobuf.DescriptorProtos.FieldOptions;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MessageOptions;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.ExtensionRegistry;
import imcodec.constraints.v1.Constraints;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where {@link Declarations} reads the constraint options from: the descriptors of the classes compiled from
 * Schemas/, or, when the environment variable {@code IMCODEC_JAVA_DECLARATIONS} names a {@code FileDescriptorSet}
 * ({@code protoc --include_imports --descriptor_set_out}), the descriptors of that set. A set made from another
 * copy of Schemas/ then changes what the validator executes without compiling the classes again, so
 * scripts/declarations/check_rule_mutations.py can show that each declaration it changes changes the findings.
 *
 * <p>The values are still decoded and walked with the compiled classes; a message type of the set is the compiled
 * one of the same full name, a field the one of the same number. The set must hold every message type and field
 * the compiled classes have.
 */
final class DeclarationSet {
    /** The environment variable that names the set. */
    static final String VARIABLE = "IMCODEC_JAVA_DECLARATIONS";

    /** The set the variable names, read on first use; null when the variable is unset or empty. */
    private static DeclarationSet configured;
    private static boolean loaded;

    /** The files of the set by their names. */
    private final Map<String, FileDescriptor> files = new HashMap<>();

    /** Every message type of the set, nested ones included, by its full name. */
    private final Map<String, Descriptor> types = new HashMap<>();

    /** The set the environment names, or null to read the compiled classes' own descriptors. */
    static synchronized DeclarationSet fromEnvironment() {
        if (!loaded) {
            String path = System.getenv(VARIABLE);
            configured = path == null || path.isEmpty() ? null : new DeclarationSet(Path.of(path));
            loaded = true;
        }
        return configured;
    }

    /**
     * Reads a set, parsing the options with the constraint extensions registered (otherwise they would stay
     * unknown fields), and builds its files in the order of their imports.
     */
    private DeclarationSet(Path path) {
        ExtensionRegistry registry = ExtensionRegistry.newInstance();
        Constraints.registerAllExtensions(registry);
        FileDescriptorSet set;
        try {
            set = FileDescriptorSet.parseFrom(Files.readAllBytes(path), registry);
        } catch (IOException error) {
            throw new IllegalStateException(VARIABLE + " names " + path + ", which is not a readable "
                    + "FileDescriptorSet: " + error);
        }
        Map<String, FileDescriptorProto> protos = new HashMap<>();
        set.getFileList().forEach(file -> protos.put(file.getName(), file));
        for (FileDescriptorProto file : set.getFileList()) {
            build(file.getName(), protos);
        }
        files.values().forEach(file -> file.getMessageTypes().forEach(this::addType));
    }

    private FileDescriptor build(String name, Map<String, FileDescriptorProto> protos) {
        FileDescriptor built = files.get(name);
        if (built != null) {
            return built;
        }
        FileDescriptorProto proto = protos.get(name);
        if (proto == null) {
            throw new IllegalStateException("the set " + VARIABLE + " names lacks " + name
                    + " (made without --include_imports?)");
        }
        List<String> imports = proto.getDependencyList();
        FileDescriptor[] dependencies = new FileDescriptor[imports.size()];
        for (int i = 0; i < dependencies.length; i++) {
            dependencies[i] = build(imports.get(i), protos);
        }
        try {
            built = FileDescriptor.buildFrom(proto, dependencies);
        } catch (DescriptorValidationException error) {
            throw new IllegalStateException("the set " + VARIABLE + " names does not build " + name + ": " + error);
        }
        files.put(name, built);
        return built;
    }

    private void addType(Descriptor type) {
        types.put(type.getFullName(), type);
        type.getNestedTypes().forEach(this::addType);
    }

    /** The set's message type of a compiled one's full name. */
    private Descriptor type(Descriptor compiled) {
        Descriptor type = types.get(compiled.getFullName());
        if (type == null) {
            throw new IllegalStateException("the set " + VARIABLE + " names has no message " + compiled.getFullName());
        }
        return type;
    }

    /** The options a compiled message type has in the set. */
    MessageOptions options(Descriptor compiled) {
        return type(compiled).getOptions();
    }

    /** The options a compiled field has in the set: those of the field of its number in its message type. */
    FieldOptions options(FieldDescriptor compiled) {
        FieldDescriptor field = type(compiled.getContainingType()).findFieldByNumber(compiled.getNumber());
        if (field == null) {
            throw new IllegalStateException("the set " + VARIABLE + " names has no field " + compiled.getFullName());
        }
        return field.getOptions();
    }

    /** The set's file of a compiled file's name. */
    FileDescriptor file(FileDescriptor compiled) {
        FileDescriptor file = files.get(compiled.getName());
        if (file == null) {
            throw new IllegalStateException("the set " + VARIABLE + " names has no file " + compiled.getName());
        }
        return file;
    }
}
