package imcodec.javatestee;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import imcodec.constraints.v1.Constraints.Condition;
import java.util.List;

/**
 * A message being validated: the message, its path (proto3 JSON names, docs/spec/payloads.md, "Paths") and the
 * node that encloses it. It answers what the declarations ask of a message: what a field reference names, whether
 * it is set, what it holds, and whether a condition holds (docs/spec/validation.md, "Reading the declarations":
 * "Names and paths", "Set", "Conditions").
 */
record Node(Message message, String path, Node parent) {
    /** The root of a validation: the payload's message at the empty path. */
    static Node root(Message message) {
        return new Node(message, "", null);
    }

    /** A message field's value (or one entry of it) as a node below this one. */
    Node child(Message value, String childPath) {
        return new Node(value, childPath, this);
    }

    /** The type of the message. */
    Descriptor type() {
        return message.getDescriptorForType();
    }

    /** The nearest enclosing node (the node itself excluded) whose message type has the short name, or null. */
    Node enclosing(String typeName) {
        for (Node node = parent; node != null; node = node.parent) {
            if (node.type().getName().equals(typeName)) {
                return node;
            }
        }
        return null;
    }

    /** A path with one more component: {@code holder.name}, or {@code name} at the root. */
    static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** A path to the entry {@code i} of a repeated field. */
    static String entry(String path, int i) {
        return path + "[" + i + "]";
    }

    // References --------------------------------------------------------------------------------------------

    /**
     * What a field reference names. {@code message} is the message that holds the field, null when the reference
     * crosses an absent message or finds no enclosing one (the field then reads its default); {@code field} is
     * null when the reference names a oneof ({@code oneof}) or a {@code ^Type} alone; {@code path} is the
     * field's path (the holder's for a oneof).
     */
    record Resolved(Message message, FieldDescriptor field, String path, OneofDescriptor oneof) {}

    /**
     * Resolves a reference of a declaration in this node: {@code field}, {@code a.b} through singular message
     * fields, {@code ^Type.field} in the nearest enclosing message of type {@code Type}, or {@code ^Type} itself.
     * Where there is no enclosing {@code Type}, the field of that type is still named, with no message (so it
     * reads its default, as the documentation says).
     */
    Resolved resolve(String ref, Declarations declarations) {
        Message holder = message;
        String at = path;
        Descriptor descriptor = type();
        if (ref.startsWith("^")) {
            int dot = ref.indexOf('.');
            String typeName = dot < 0 ? ref.substring(1) : ref.substring(1, dot);
            Node enclosing = enclosing(typeName);
            if (enclosing == null) {
                Descriptor type = declarations.type(typeName);
                if (dot < 0 || type == null) {
                    return new Resolved(null, null, "", null);
                }
                holder = null;
                at = "";
                descriptor = type;
            } else {
                if (dot < 0) {
                    return new Resolved(enclosing.message, null, enclosing.path, null);
                }
                holder = enclosing.message;
                at = enclosing.path;
                descriptor = enclosing.type();
            }
            ref = ref.substring(dot + 1);
        }
        String[] parts = ref.split("\\.");
        for (int i = 0; i < parts.length; i++) {
            boolean last = i == parts.length - 1;
            if (last) {
                for (OneofDescriptor oneof : descriptor.getOneofs()) {
                    if (oneof.getName().equals(parts[i])) {
                        return new Resolved(holder, null, at, oneof);
                    }
                }
            }
            FieldDescriptor field = descriptor.findFieldByName(parts[i]);
            if (field == null) {
                throw new IllegalStateException("a declaration names " + parts[i] + ", not a field of "
                        + descriptor.getFullName());
            }
            at = join(at, field.getJsonName());
            if (last) {
                return new Resolved(holder, field, at, null);
            }
            if (holder != null && !holder.hasField(field)) {
                holder = null;
            }
            if (holder != null) {
                holder = (Message) holder.getField(field);
            }
            descriptor = field.getMessageType();
        }
        throw new IllegalStateException("an empty reference");
    }

    /** Whether a reference names something set; a {@code ^Type} alone is set when there is one. */
    boolean isSet(String ref, Declarations declarations) {
        Resolved resolved = resolve(ref, declarations);
        if (resolved.message() == null) {
            return false;
        }
        if (resolved.oneof() != null) {
            return resolved.message().getOneofFieldDescriptor(resolved.oneof()) != null;
        }
        return resolved.field() == null || isSet(resolved.message(), resolved.field());
    }

    /**
     * The value a reference names (a {@code List} for a repeated field), the field's default where it crosses an
     * absent message, null where it names no field.
     */
    Object value(String ref, Declarations declarations) {
        Resolved resolved = resolve(ref, declarations);
        return resolved.field() == null ? null : valueOf(resolved.message(), resolved.field());
    }

    /** The path of a reference. */
    String pathOf(String ref, Declarations declarations) {
        return resolve(ref, declarations).path();
    }

    /** Whether a condition holds in this node. */
    boolean holds(Condition condition, Declarations declarations) {
        boolean result;
        if (condition.hasPresent()) {
            result = isSet(condition.getField(), declarations) == condition.getPresent();
        } else {
            Resolved resolved = resolve(condition.getField(), declarations);
            FieldDescriptor field = resolved.field();
            Object value = field == null ? null : valueOf(resolved.message(), field);
            Long number = field == null ? null : numberOrNull(field, value);
            result = number != null && condition.getNumbersList().contains(number);
            if (field != null && value instanceof Number floating && number == null) {
                result = condition.getNumbersList().stream().anyMatch(n -> n == floating.doubleValue());
            }
            if (field != null && field.getJavaType() == FieldDescriptor.JavaType.ENUM) {
                EnumValueDescriptor named = field.getEnumType().findValueByNumber(number.intValue());
                result = result || named != null && condition.getStringsList().contains(named.getName());
            } else if (field != null && field.getJavaType() == FieldDescriptor.JavaType.STRING) {
                result = result || condition.getStringsList().contains((String) value);
            }
        }
        return result != condition.getNegate();
    }

    /** Whether every condition holds (none: true). */
    boolean allHold(List<Condition> conditions, Declarations declarations) {
        for (Condition condition : conditions) {
            if (!holds(condition, declarations)) {
                return false;
            }
        }
        return true;
    }

    // Values -----------------------------------------------------------------------------------------------

    /**
     * Whether a field holds something other than its proto3 default: a repeated field an entry, a message or a
     * oneof member presence, a number non-zero (so {@code -0.0} is unset, as in every other runtime), a string or
     * bytes a byte, a bool {@code true}.
     */
    static boolean isSet(Message message, FieldDescriptor field) {
        if (field.isRepeated()) {
            return message.getRepeatedFieldCount(field) > 0;
        }
        if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE || field.getContainingOneof() != null) {
            return message.hasField(field);
        }
        return !isDefault(field, message.getField(field));
    }

    /** Whether a singular scalar value is its type's proto3 default. */
    static boolean isDefault(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case STRING -> ((String) value).isEmpty();
            case BYTE_STRING -> ((ByteString) value).isEmpty();
            case BOOLEAN -> !(Boolean) value;
            case FLOAT, DOUBLE -> ((Number) value).doubleValue() == 0;
            case MESSAGE -> value == null;
            default -> number(field, value) == 0;
        };
    }

    /** A field's value in a message, or its default when there is no message (an empty list when repeated). */
    static Object valueOf(Message message, FieldDescriptor field) {
        if (message != null) {
            return message.getField(field);
        }
        return field.isRepeated() ? List.of() : field.getDefaultValue();
    }

    /**
     * The integer a value of an integer, bool or enum field holds: unsigned 32-bit types read unsigned, an enum its
     * number (also one the schema does not name), a bool 0 or 1.
     */
    static long number(FieldDescriptor field, Object value) {
        return switch (field.getType()) {
            case UINT32, FIXED32 -> Integer.toUnsignedLong((Integer) value);
            case ENUM -> ((EnumValueDescriptor) value).getNumber();
            case BOOL -> (Boolean) value ? 1 : 0;
            case INT32, SINT32, SFIXED32, INT64, SINT64, SFIXED64, UINT64, FIXED64 -> ((Number) value).longValue();
            default -> throw new IllegalStateException(field.getFullName() + " does not hold an integer");
        };
    }

    /** {@link #number}, or null for a field that holds no integer (string, bytes, message, floating point). */
    static Long numberOrNull(FieldDescriptor field, Object value) {
        return switch (field.getJavaType()) {
            case INT, LONG, BOOLEAN, ENUM -> number(field, value);
            default -> null;
        };
    }
}
