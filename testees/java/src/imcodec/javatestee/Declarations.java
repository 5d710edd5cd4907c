package imcodec.javatestee;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import imcodec.constraints.v1.Constraints;
import imcodec.constraints.v1.Constraints.Condition;
import imcodec.constraints.v1.Constraints.FieldConstraints;
import imcodec.constraints.v1.Constraints.Limit;
import imcodec.constraints.v1.Constraints.MessageConstraints;
import imcodec.constraints.v1.Constraints.ProfileValue;
import imcodec.constraints.v1.Constraints.Report;
import imcodec.constraints.v1.Constraints.Use;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The constraint declarations of Schemas/ that govern one payload type, read once through protobuf-java's
 * descriptors: the {@code (imcodec.constraints.v1.message)} option of every message type reachable from the root
 * and the {@code (imcodec.constraints.v1.field)} option of each of their fields
 * (Schemas/imcodec/constraints/v1/constraints.proto). Nothing here knows a limit, a field or a code: it only
 * indexes what the schema declares, so that {@link Validator} can execute it (docs/spec/validation.md, "Reading
 * the declarations"). The options are those of the compiled classes' descriptors, or those of the descriptor set
 * {@code IMCODEC_JAVA_DECLARATIONS} names ({@link DeclarationSet}); the types and fields they are indexed by are
 * the compiled ones either way.
 */
final class Declarations {
    /** Every limit by its name, wherever it is declared (a field's or a message's), for {@code uses} and prefixes. */
    private final Map<String, Limit> limits = new HashMap<>();

    /** Each message type's message-level constraints; absent when it declares none. */
    private final Map<Descriptor, MessageConstraints> messages = new HashMap<>();

    /** Each message type's fields that declare constraints, in field order, with their constraints. */
    private final Map<Descriptor, List<Declared>> fields = new HashMap<>();

    /** The limits that apply to each declaring field: its own, its {@code uses} and its {@code use}s. */
    private final Map<FieldDescriptor, List<Applied>> applied = new HashMap<>();

    /** Every reachable message type by its short name, for a {@code ^Type} reference without an enclosing one. */
    private final Map<String, Descriptor> typesByName = new HashMap<>();

    /** Every enum of the files involved by its full name, for {@code named_values}. */
    private final Map<String, EnumDescriptor> enumsByFullName = new HashMap<>();

    /** A field with the constraints it declares. */
    record Declared(FieldDescriptor field, FieldConstraints constraints) {}

    /**
     * One limit as it applies to one field (or, for a message-level limit, to the message): the limit, and the
     * attributes of the place it applies — its declaration's own, a {@code use}'s, or none for a plain
     * {@code uses} name.
     */
    record Applied(Limit limit, List<Condition> when, Report report, String entryField, String key,
            List<Condition> countWhen) {
        /** A limit where it is declared, with its declaration's attributes. */
        static Applied declared(Limit limit) {
            return new Applied(limit, limit.getWhenList(), limit.getReport(), limit.getEntryField(), limit.getKey(),
                    limit.getCountWhenList());
        }

        /** A limit named in {@code uses}: applied with none of the attributes of its declaration. */
        static Applied plain(Limit limit) {
            return new Applied(limit, List.of(), Report.REPORT_FIELD, "", "", List.of());
        }

        /** A limit applied by a {@code use}, with the attributes the use gives. */
        static Applied used(Limit limit, Use use) {
            return new Applied(limit, use.getWhenList(), use.getReport(), use.getEntryField(), use.getKey(),
                    use.getCountWhenList());
        }
    }

    private static final Map<Descriptor, Declarations> CACHE = new HashMap<>();

    /** The declarations reachable from a payload type, read on first use and kept. */
    static synchronized Declarations of(Descriptor root) {
        return CACHE.computeIfAbsent(root, Declarations::new);
    }

    /**
     * Reads the declarations of every message type reachable from {@code root} through message fields, then
     * resolves each field's {@code uses} and {@code use} names against the limits declared anywhere among them.
     */
    private Declarations(Descriptor root) {
        DeclarationSet set = DeclarationSet.fromEnvironment();
        Set<Descriptor> seen = new HashSet<>();
        Set<FileDescriptor> files = new HashSet<>();
        Deque<Descriptor> pending = new ArrayDeque<>(List.of(root));
        while (!pending.isEmpty()) {
            Descriptor descriptor = pending.pop();
            if (!seen.add(descriptor)) {
                continue;
            }
            typesByName.put(descriptor.getName(), descriptor);
            addFile(set == null ? descriptor.getFile() : set.file(descriptor.getFile()), files);
            var options = set == null ? descriptor.getOptions() : set.options(descriptor);
            if (options.hasExtension(Constraints.message)) {
                MessageConstraints constraints = options.getExtension(Constraints.message);
                messages.put(descriptor, constraints);
                constraints.getLimitList().forEach(limit -> limits.put(limit.getName(), limit));
            }
            List<Declared> declared = new ArrayList<>();
            for (FieldDescriptor field : descriptor.getFields()) {
                if (field.getType() == FieldDescriptor.Type.MESSAGE) {
                    pending.push(field.getMessageType());
                }
                var fieldOptions = set == null ? field.getOptions() : set.options(field);
                if (fieldOptions.hasExtension(Constraints.field)) {
                    FieldConstraints constraints = fieldOptions.getExtension(Constraints.field);
                    declared.add(new Declared(field, constraints));
                    constraints.getLimitList().forEach(limit -> limits.put(limit.getName(), limit));
                }
            }
            fields.put(descriptor, declared);
        }
        for (List<Declared> declared : fields.values()) {
            for (Declared entry : declared) {
                FieldConstraints constraints = entry.constraints();
                List<Applied> list = new ArrayList<>();
                constraints.getLimitList().forEach(limit -> list.add(Applied.declared(limit)));
                constraints.getUsesList().forEach(name -> list.add(Applied.plain(limit(name))));
                constraints.getUseList().forEach(use -> list.add(Applied.used(limit(use.getLimit()), use)));
                applied.put(entry.field(), List.copyOf(list));
            }
        }
    }

    /** Indexes the enums of a file and of the files it imports, once each. */
    private void addFile(FileDescriptor file, Set<FileDescriptor> files) {
        if (!files.add(file)) {
            return;
        }
        file.getEnumTypes().forEach(e -> enumsByFullName.put(e.getFullName(), e));
        file.getMessageTypes().forEach(this::addNestedEnums);
        file.getDependencies().forEach(dependency -> addFile(dependency, files));
    }

    private void addNestedEnums(Descriptor type) {
        type.getEnumTypes().forEach(e -> enumsByFullName.put(e.getFullName(), e));
        type.getNestedTypes().forEach(this::addNestedEnums);
    }

    /** The limit declared under a name; a name no declaration defines is an error of the schema. */
    Limit limit(String name) {
        Limit limit = limits.get(name);
        if (limit == null) {
            throw new IllegalStateException("no declaration defines the limit " + name);
        }
        return limit;
    }

    /** A message type's message-level constraints, or null. */
    MessageConstraints message(Descriptor type) {
        return messages.get(type);
    }

    /** A message type's declaring fields in field order (empty for a type that declares nothing). */
    List<Declared> fields(Descriptor type) {
        return fields.getOrDefault(type, List.of());
    }

    /** The limits that apply to a field (empty for a field that declares nothing). */
    List<Applied> applied(FieldDescriptor field) {
        return applied.getOrDefault(field, List.of());
    }

    /** A reachable message type by its short name, or null. */
    Descriptor type(String name) {
        return typesByName.get(name);
    }

    /** An enum of the schema by its full name; an unknown name is an error of the schema. */
    EnumDescriptor enumType(String fullName) {
        EnumDescriptor type = enumsByFullName.get(fullName);
        if (type == null) {
            throw new IllegalStateException("named_values names the unknown enum " + fullName);
        }
        return type;
    }

    /**
     * A limit's value in a profile, or null when the profile does not have the rule: the profile's value is
     * absent, or it is a flag that is false, or a prefix that is empty.
     */
    static ProfileValue value(Limit limit, Profile profile) {
        if (!profile.has(limit)) {
            return null;
        }
        ProfileValue value = profile.of(limit);
        return switch (limit.getMeasure()) {
            case MEASURE_FLAG -> value.getFlag() ? value : null;
            case MEASURE_PREFIX, MEASURE_FORBIDDEN_PREFIX -> value.getText().isEmpty() ? null : value;
            default -> value;
        };
    }

    /**
     * A validation profile (docs/spec/validation.md, "Profiles"): the {@code ProfileValue} field of a
     * {@code Limit} that holds its numbers. {@code seed} is the earlier name of {@code sdk-guide}.
     */
    enum Profile {
        SDK_GUIDE, CURRENT;

        /** The profile a name answers to, or null for a name no declaration knows. */
        static Profile named(String name) {
            return switch (name) {
                case "sdk-guide", "seed" -> SDK_GUIDE;
                case "current" -> CURRENT;
                default -> null;
            };
        }

        /** The names {@link #named} accepts, for a message about an unknown one. */
        static final String NAMES = "sdk-guide, seed, current";

        boolean has(Limit limit) {
            return this == SDK_GUIDE ? limit.hasSdkGuide() : limit.hasCurrent();
        }

        ProfileValue of(Limit limit) {
            return this == SDK_GUIDE ? limit.getSdkGuide() : limit.getCurrent();
        }
    }
}
