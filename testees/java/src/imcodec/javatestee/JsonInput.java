package imcodec.javatestee;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.lang.reflect.Method;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The proto3 JSON form through protobuf-java's {@code JsonFormat}, with the checks it cannot make put in front:
 * {@code JsonFormat} reads JSON with Gson in lenient mode, keeps the last of two equal member names, and its
 * errors name neither a stable code nor a path. So the text is read by {@link JsonText}, walked against the
 * descriptors in document order with the codes and paths of docs/spec/payloads.md, written
 * out again with every member under its JSON name and every number in plain form, and only then handed to
 * {@code JsonFormat}, which builds the message.
 */
final class JsonInput {
    private JsonInput() {}

    private static final Pattern JSON_NUMBER = Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");
    private static final Pattern DECIMAL_INTEGER = Pattern.compile("-?(0|[1-9][0-9]*)");
    private static final Map<Descriptor, Map<String, FieldDescriptor>> FIELDS_BY_JSON_NAME = new HashMap<>();
    private static final BigDecimal MAX_DOUBLE = new BigDecimal(Double.MAX_VALUE);

    /**
     * Reads proto3 JSON text as a payload kind with the limits.
     *
     * @param utf8Bytes the size of the text in UTF-8, judged against {@code maxDocumentBytes}
     */
    static Message read(int kind, String text, int utf8Bytes, DecodingLimits limits) {
        Message prototype = Schema.prototype(kind);
        if (Integer.toUnsignedLong(utf8Bytes) > limits.maxDocumentBytes) {
            throw new Failure("limit.document-size", "", "a document of " + utf8Bytes + " bytes");
        }
        long widest = Math.max(limits.maxElems, Math.max(limits.maxRepeated, limits.maxBatchMessages));
        JsonText.Value value = JsonText.parse(text, limits.jsonNesting(), (int) Math.min(widest + 1, 1 << 30));
        StringBuilder plain = new StringBuilder();
        new JsonInput.Walk(limits, plain).message(prototype.getDescriptorForType(), value, "", 0);
        Message.Builder builder = prototype.newBuilderForType();
        try {
            parser(limits).merge(plain.toString(), builder);
        } catch (InvalidProtocolBufferException error) {
            throw new BadRequest("JsonFormat refused JSON the checks accepted: " + error.getMessage());
        }
        return builder.build();
    }

    /** A value's proto3 JSON form, as {@code JsonFormat}'s printer writes it. */
    static String print(MessageOrBuilder message) {
        try {
            return JsonFormat.printer().omittingInsignificantWhitespace().print(message);
        } catch (InvalidProtocolBufferException error) {
            throw new BadRequest("JsonFormat cannot print the value: " + error.getMessage());
        }
    }

    /**
     * A {@code JsonFormat} parser that may nest as deep as the limits let a value nest. Its default stops at
     * 100 nested messages, a third of the default {@code maxDepth} (a merger layer is 3 messages: Message,
     * Elem, MergerElem), and protobuf-java 3.21.12 keeps {@code usingRecursionLimit} package-private, so it
     * is called by reflection (the jar is on the class path, not a module, so that is allowed).
     */
    private static JsonFormat.Parser parser(DecodingLimits limits) {
        JsonFormat.Parser parser = JsonFormat.parser();
        if (Payloads.PROTOBUF_JAVA_RECURSION_LIMITS) return parser;
        try {
            Method method = JsonFormat.Parser.class.getDeclaredMethod("usingRecursionLimit", int.class);
            method.setAccessible(true);
            return (JsonFormat.Parser) method.invoke(parser, (int) Math.min(3 * limits.maxDepth + 16, 1 << 20));
        } catch (ReflectiveOperationException | RuntimeException error) {
            throw new BadRequest("cannot raise JsonFormat's recursion limit: " + error);
        }
    }

    private static synchronized FieldDescriptor field(Descriptor descriptor, String name) {
        Map<String, FieldDescriptor> byJsonName = FIELDS_BY_JSON_NAME.computeIfAbsent(descriptor, d -> {
            Map<String, FieldDescriptor> map = new HashMap<>();
            for (FieldDescriptor field : d.getFields()) {
                map.put(field.getJsonName(), field);
            }
            return map;
        });
        FieldDescriptor field = byJsonName.get(name);
        return field != null ? field : descriptor.findFieldByName(name);
    }

    /** The walk of one document: checks in document order, writes the plain form. */
    private static final class Walk {
        private final DecodingLimits limits;
        private final StringBuilder out;

        Walk(DecodingLimits limits, StringBuilder out) {
            this.limits = limits;
            this.out = out;
        }

        void message(Descriptor descriptor, JsonText.Value value, String path, long layer) {
            if (!(value instanceof JsonText.Obj object)) {
                throw new Failure("json.type", path, "expected an object");
            }
            Set<Integer> seen = new HashSet<>();
            Set<String> oneofs = new HashSet<>();
            out.append('{');
            boolean first = true;
            for (JsonText.Member member : object.members()) {
                FieldDescriptor field = field(descriptor, member.name());
                // An unknown or repeated member is named as written; every other path names fields by their
                // JSON names, whatever the spelling.
                String written = Schema.join(path, member.name());
                if (field == null) {
                    throw new Failure("json.unknown-field", written,
                            descriptor.getFullName() + " has no field " + member.name());
                }
                if (!seen.add(field.getNumber())) {
                    throw new Failure("json.duplicate-field", written, field.getName() + " given twice");
                }
                boolean isNull = member.value() instanceof JsonText.Null;
                if (field.getContainingOneof() != null && !isNull
                        && !oneofs.add(field.getContainingOneof().getName())) {
                    throw new Failure("json.duplicate-field", written,
                            "a second member of oneof " + field.getContainingOneof().getName());
                }
                if (isNull) {
                    continue;
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString(field.getJsonName());
                out.append(':');
                member(descriptor, field, member.value(), Schema.join(path, field.getJsonName()), layer);
            }
            out.append('}');
        }

        private void member(Descriptor descriptor, FieldDescriptor field, JsonText.Value value, String path,
                long layer) {
            if (!field.isRepeated()) {
                single(field, value, path, layer);
                return;
            }
            if (!(value instanceof JsonText.Arr array)) {
                throw new Failure("json.type", path, "expected an array");
            }
            Schema.CountLimit limit = Schema.countLimit(field, limits);
            if (array.values().size() > limit.value()) {
                throw new Failure(limit.code(), path + "[" + limit.value() + "]",
                        "more than " + limit.value() + " entries");
            }
            out.append('[');
            for (int index = 0; index < array.values().size(); index++) {
                if (index > 0) {
                    out.append(',');
                }
                single(field, array.values().get(index), path + "[" + index + "]", layer);
            }
            out.append(']');
        }

        private void single(FieldDescriptor field, JsonText.Value value, String path, long layer) {
            switch (field.getJavaType()) {
                case MESSAGE -> {
                    long inner = layer + (Schema.isMergerMessages(field) ? 1 : 0);
                    if (inner > limits.maxDepth) {
                        throw new Failure("limit.depth", path, "nesting reaches layer " + inner);
                    }
                    message(field.getMessageType(), value, path, inner);
                }
                case STRING -> {
                    if (!(value instanceof JsonText.Str string)) {
                        throw new Failure("json.type", path, "expected a string");
                    }
                    writeString(string.text());
                }
                case BYTE_STRING -> {
                    if (!(value instanceof JsonText.Str string)) {
                        throw new Failure("json.type", path, "expected a base64 string");
                    }
                    writeString(Base64.getEncoder().encodeToString(base64(string.text(), path)));
                }
                case BOOLEAN -> {
                    if (!(value instanceof JsonText.Bool bool)) {
                        throw new Failure("json.type", path, "expected true or false");
                    }
                    out.append(bool.value());
                }
                case ENUM -> {
                    if (value instanceof JsonText.Num number) {
                        out.append(integer(field, number.literal(), path));
                    } else if (value instanceof JsonText.Str name) {
                        EnumValueDescriptor named = field.getEnumType().findValueByName(name.text());
                        if (named == null) {
                            throw new Failure("json.value", path,
                                    name.text() + " is not a value of " + field.getEnumType().getFullName());
                        }
                        writeString(name.text());
                    } else {
                        throw new Failure("json.type", path, "expected an enum name or number");
                    }
                }
                case DOUBLE, FLOAT -> {
                    String text;
                    if (value instanceof JsonText.Num number) {
                        text = number.literal();
                    } else if (value instanceof JsonText.Str string) {
                        text = string.text();
                        if (text.equals("NaN") || text.equals("Infinity") || text.equals("-Infinity")) {
                            writeString(text);
                            return;
                        }
                        if (!JSON_NUMBER.matcher(text).matches()) {
                            throw new Failure("json.value", path, text + " is not a number");
                        }
                    } else {
                        throw new Failure("json.type", path, "expected a number");
                    }
                    if (new BigDecimal(text).abs().compareTo(MAX_DOUBLE) > 0) {
                        throw new Failure("json.value", path, text + " is beyond the range of a double");
                    }
                    out.append(text);
                }
                default -> {
                    String text;
                    if (value instanceof JsonText.Num number) {
                        text = number.literal();
                    } else if (value instanceof JsonText.Str string) {
                        text = string.text();
                    } else {
                        throw new Failure("json.type", path, "expected an integer");
                    }
                    out.append(integer(field, text, path));
                }
            }
        }

        /** An integer given as a number or a string: integral, in the field's range; its plain decimal form. */
        private static String integer(FieldDescriptor field, String text, String path) {
            BigInteger number;
            if (DECIMAL_INTEGER.matcher(text).matches()) {
                number = new BigInteger(text);
            } else if (JSON_NUMBER.matcher(text).matches()) {
                BigDecimal exact = new BigDecimal(text);
                // More than 20 integer digits is out of every range; do not expand 1e999999999.
                if (exact.signum() != 0 && exact.precision() - exact.scale() > 21) {
                    throw new Failure("json.value", path, text + " is out of range");
                }
                try {
                    number = exact.toBigIntegerExact();
                } catch (ArithmeticException fraction) {
                    throw new Failure("json.value", path, text + " is not an integer");
                }
            } else {
                throw new Failure("json.value", path, text + " is not an integer");
            }
            BigInteger low;
            BigInteger high;
            switch (field.getType()) {
                case UINT32, FIXED32 -> {
                    low = BigInteger.ZERO;
                    high = BigInteger.valueOf(0xFFFFFFFFL);
                }
                case INT64, SINT64, SFIXED64 -> {
                    low = BigInteger.valueOf(Long.MIN_VALUE);
                    high = BigInteger.valueOf(Long.MAX_VALUE);
                }
                case UINT64, FIXED64 -> {
                    low = BigInteger.ZERO;
                    high = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
                }
                default -> {
                    low = BigInteger.valueOf(Integer.MIN_VALUE);
                    high = BigInteger.valueOf(Integer.MAX_VALUE);
                }
            }
            if (number.compareTo(low) < 0 || number.compareTo(high) > 0) {
                throw new Failure("json.value", path, text + " is out of range");
            }
            return number.toString();
        }

        /** Standard or URL-safe base64, padded or not. */
        private static byte[] base64(String text, String path) {
            String standard = text.replace('-', '+').replace('_', '/');
            int pad = (4 - standard.length() % 4) % 4;
            try {
                return Base64.getDecoder().decode(standard + "=".repeat(pad));
            } catch (IllegalArgumentException error) {
                throw new Failure("json.value", path, "not base64");
            }
        }

        private void writeString(String text) {
            out.append('"');
            for (int i = 0; i < text.length(); i++) {
                char c = text.charAt(i);
                if (c == '"' || c == '\\') {
                    out.append('\\').append(c);
                } else if (c < 0x20) {
                    out.append(String.format("\\u%04x", (int) c));
                } else {
                    out.append(c);
                }
            }
            out.append('"');
        }
    }
}
