package imcodec.javatestee;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Message;
import imcodec.v1.Model;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Export of the REST form (docs/spec/rest.md, "Export"): a decoded Message or MessageBatch written as canonical REST
 * text by the tables of {@link RestForm}, after a check that names the first value the form cannot hold
 * ({@code rest.unrepresentable}).
 */
final class RestExport {
    private RestExport() {}

    private static final long U32 = RestForm.VALUE_FORMS.get("uint32").max();

    /**
     * The canonical REST text of a decoded payload.
     *
     * @throws Failure {@code rest.unrepresentable} at the model path of the first value the form cannot hold
     * @throws BadRequest a payload type the REST form has no document for
     */
    static String write(Message value) {
        if (value instanceof Model.MessageBatch batch) {
            for (int i = 0; i < batch.getMessagesCount(); i++) {
                check(batch.getMessages(i), "messages[" + i + "]");
            }
            unknown(batch, "");
            List<Object> entries = new ArrayList<>();
            for (Model.Message m : batch.getMessagesList()) {
                entries.add(message(m, false, false));
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put(RestForm.LIST_KEYS.get(0), entries);
            return dump(out);
        }
        if (value instanceof Model.Message message) {
            check(message, "");
            return dump(message(message, false, true));
        }
        throw new BadRequest("the REST form has no document for " + value.getDescriptorForType().getName());
    }

    /** The canonical text of a message's {@code MsgBody}: its elems as export writes them. */
    static String body(Model.Message message) {
        List<Object> elems = new ArrayList<>();
        for (Model.Elem e : message.getElemsList()) {
            elems.add(elem(e));
        }
        return dump(elems);
    }

    // -- what the form cannot hold ------------------------------------------------------------------------

    private static String member(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static Failure unrepresentable(String path, String reason) {
        return new Failure("rest.unrepresentable", path, reason);
    }

    private static void unknown(Message message, String path) {
        if (!message.getUnknownFields().asMap().isEmpty()) {
            throw unrepresentable(path, "unknown fields have no REST form");
        }
    }

    /** Whether a field holds a value other than its default. */
    private static boolean isSet(Message message, FieldDescriptor field) {
        if (field.isRepeated()) {
            return message.getRepeatedFieldCount(field) > 0;
        }
        if (field.hasPresence()) {
            return message.hasField(field);
        }
        Object value = message.getField(field);
        return switch (field.getJavaType()) {
            case STRING -> !((String) value).isEmpty();
            case BYTE_STRING -> !((ByteString) value).isEmpty();
            case BOOLEAN -> (Boolean) value;
            case INT -> (Integer) value != 0;
            case LONG -> (Long) value != 0;
            case DOUBLE -> Double.doubleToRawLongBits((Double) value) != 0;
            case FLOAT -> Float.floatToRawIntBits((Float) value) != 0;
            case ENUM -> ((EnumValueDescriptor) value).getNumber() != 0;
            case MESSAGE -> message.hasField(field);
        };
    }

    private static String utf8(ByteString data, String path) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data.toByteArray()))
                    .toString();
        } catch (CharacterCodingException error) {
            throw unrepresentable(path, "not UTF-8");
        }
    }

    /** The checks a list of the declaration states: "field" (must be default) or "field:condition". */
    private static void declared(List<String> entries, Message message, String path, Model.MergerElem merger) {
        for (String entry : entries) {
            int colon = entry.indexOf(':');
            String name = colon < 0 ? entry : entry.substring(0, colon);
            String condition = colon < 0 ? "" : entry.substring(colon + 1);
            FieldDescriptor field = message.getDescriptorForType().findFieldByName(name);
            boolean fail = switch (condition) {
                case "uint32" -> {
                    long value = ((Number) message.getField(field)).longValue();
                    yield field.getType() == FieldDescriptor.Type.UINT64 ? Long.compareUnsigned(value, U32) > 0
                            : value < 0 || value > U32;
                }
                case "levelType" -> {
                    int value = ((EnumValueDescriptor) message.getField(field)).getNumber();
                    yield value < 1 || value > 3;
                }
                case "listLength" -> {
                    boolean withList = merger.getMessagesCount() > 0 || merger.getJsonMsgKey().isEmpty();
                    yield merger.getMsgNum() != 0 && withList
                            && Integer.toUnsignedLong(merger.getMsgNum()) != merger.getMessagesCount();
                }
                case "withoutList" -> !merger.getJsonMsgKey().isEmpty() && merger.getMessagesCount() > 0;
                default -> isSet(message, field);
            };
            if (fail) {
                throw unrepresentable(member(path, field.getJsonName()), "REST has no " + name + " of this value");
            }
        }
    }

    private record Step(String what, Message value, String path) {}

    /** Checks a message and everything in it, in the order of docs/spec/rest.md; no recursion per merger layer. */
    private static void check(Model.Message root, String rootPath) {
        Deque<Step> stack = new ArrayDeque<>();
        stack.push(new Step("message", root, rootPath));
        while (!stack.isEmpty()) {
            Step step = stack.pop();
            String where = step.path();
            switch (step.what()) {
                case "message" -> {
                    Model.Message m = (Model.Message) step.value();
                    declared(RestForm.UNREPRESENTABLE.get("message"), m, where, null);
                    if (m.hasOfflinePushInfo()) {
                        Model.OfflinePushInfo push = m.getOfflinePushInfo();
                        String pushPath = member(where, "offlinePushInfo");
                        unknown(push, pushPath);
                        if (push.hasAndroid()) {
                            unknown(push.getAndroid(), member(pushPath, "android"));
                        }
                        if (push.hasApns()) {
                            unknown(push.getApns(), member(pushPath, "apns"));
                        }
                    }
                    utf8(m.getCloudCustomData(), member(where, "cloudCustomData"));
                    stack.push(new Step("messageEnd", m, where));
                    for (int i = m.getElemsCount() - 1; i >= 0; i--) {
                        stack.push(new Step("elem", m.getElems(i), member(where, "elems") + "[" + i + "]"));
                    }
                }
                case "messageEnd" -> {
                    declared(RestForm.UNREPRESENTABLE.get("messageEnd"), step.value(), where, null);
                    unknown(step.value(), where);
                }
                case "elem" -> checkElem((Model.Elem) step.value(), where, stack);
                default -> {
                    Model.Elem elem = (Model.Elem) step.value();
                    FieldDescriptor kind = elem.getOneofFieldDescriptor(Model.Elem.getDescriptor().getOneofs().get(0));
                    Model.MergerElem merger = (Model.MergerElem) elem.getField(kind);
                    String contentPath = member(where, kind.getJsonName());
                    declared(RestForm.UNREPRESENTABLE.get("relay"), merger, contentPath, merger);
                    unknown(merger, contentPath);
                    unknown(elem, where);
                }
            }
        }
    }

    private static void checkElem(Model.Elem elem, String where, Deque<Step> stack) {
        FieldDescriptor kind = elem.getOneofFieldDescriptor(Model.Elem.getDescriptor().getOneofs().get(0));
        if (kind == null) {
            throw unrepresentable(where, "an elem of no known kind has no REST element type");
        }
        String contentPath = member(where, kind.getJsonName());
        RestForm.ElemType type = RestForm.ELEM_OF_KIND.get(kind.getName());
        if (type == null) {
            throw unrepresentable(contentPath, kind.getName() + " is not a REST element type");
        }
        Message content = (Message) elem.getField(kind);
        if (type.form().equals("relay")) {
            Model.MergerElem merger = (Model.MergerElem) content;
            stack.push(new Step("mergerEnd", elem, where));
            for (int i = merger.getMessagesCount() - 1; i >= 0; i--) {
                stack.push(new Step("message", merger.getMessages(i), member(contentPath, "messages") + "[" + i + "]"));
            }
            return;
        }
        if (type.form().equals("image")) {
            Model.ImageElem image = (Model.ImageElem) content;
            for (int i = 0; i < image.getLevelsCount(); i++) {
                String levelPath = member(contentPath, "levels") + "[" + i + "]";
                declared(RestForm.UNREPRESENTABLE.get("imageLevel"), image.getLevels(i), levelPath, null);
                unknown(image.getLevels(i), levelPath);
            }
            unknown(content, contentPath);
        } else {
            for (RestForm.Key key : RestForm.FORMS.get(type.form())) {
                FieldDescriptor field = content.getDescriptorForType().findFieldByName(key.field());
                if (key.value().equals("text")) {
                    utf8((ByteString) content.getField(field), member(contentPath, field.getJsonName()));
                } else if (key.value().equals("double") && !Double.isFinite((Double) content.getField(field))) {
                    throw unrepresentable(member(contentPath, field.getJsonName()), "JSON has no NaN or infinity");
                }
            }
            declared(type.unrepresentable(), content, contentPath, null);
            unknown(content, contentPath);
        }
        unknown(elem, where);
    }

    // -- writing ------------------------------------------------------------------------------------------

    private static Object scalar(RestForm.Key key, Message message, FieldDescriptor field) {
        Object value = message.getField(field);
        if (value instanceof ByteString bytes) {
            return bytes.toStringUtf8();
        }
        if (value instanceof EnumValueDescriptor e) {
            return (long) e.getNumber();
        }
        if (value instanceof Integer n) {
            return field.getType() == FieldDescriptor.Type.UINT32 ? Integer.toUnsignedLong(n) : (long) n;
        }
        return value;
    }

    /** The keys of a form; {@code written} gives the values of nested keys (a null value leaves its key out). */
    private static Map<String, Object> table(String form, Message message, Map<String, Object> written) {
        List<RestForm.Key> keys = RestForm.FORMS.get(form);
        boolean inUse = false;
        for (RestForm.Key k : keys) {
            if (k.presence().equals("group") && k.field() != null) {
                inUse |= isSet(message, message.getDescriptorForType().findFieldByName(k.field()));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (RestForm.Key k : keys) {
            if (written.containsKey(k.name())) {
                if (written.get(k.name()) != null) {
                    out.put(k.name(), written.get(k.name()));
                }
                continue;
            }
            FieldDescriptor field = message.getDescriptorForType().findFieldByName(k.field());
            if (k.presence().equals("group")) {
                if (inUse) {
                    out.put(k.name(), scalar(k, message, field));
                }
            } else if (k.presence().equals("required") || isSet(message, field)) {
                out.put(k.name(), scalar(k, message, field));
            }
        }
        return out;
    }

    /** The non-default keys of an object of a form, with the outside keys read from {@code outer}. */
    private static Map<String, Object> nonDefault(String form, Message message, Message outer) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RestForm.Key k : RestForm.FORMS.get(form)) {
            Message holder = k.outside() != null ? outer : message;
            String name = k.outside() != null ? k.outside().substring(k.outside().indexOf('.') + 1) : k.field();
            FieldDescriptor field = holder.getDescriptorForType().findFieldByName(name);
            if (isSet(holder, field)) {
                out.put(k.name(), scalar(k, holder, field));
            }
        }
        return out;
    }

    private static Map<String, Object> push(Model.OfflinePushInfo push) {
        Map<String, Object> written = new LinkedHashMap<>();
        for (RestForm.Key k : RestForm.FORMS.get("offlinePush")) {
            if (k.value().equals("object")) {
                FieldDescriptor field = push.getDescriptorForType().findFieldByName(k.field());
                Map<String, Object> sub = nonDefault(k.form(), (Message) push.getField(field), push);
                written.put(k.name(), sub.isEmpty() ? null : sub);
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (RestForm.Key k : RestForm.FORMS.get("offlinePush")) {
            if (written.containsKey(k.name())) {
                if (written.get(k.name()) != null) {
                    out.put(k.name(), written.get(k.name()));
                }
            } else {
                FieldDescriptor field = push.getDescriptorForType().findFieldByName(k.field());
                if (isSet(push, field)) {
                    out.put(k.name(), scalar(k, push, field));
                }
            }
        }
        return out;
    }

    /**
     * A message: {@code entry} for a MsgList entry of a relay (the forwarded form's required keys always),
     * {@code bare} for a message at the top, written as its bare MsgBody when nothing else is set.
     */
    private static Object message(Model.Message m, boolean entry, boolean bare) {
        String form = entry ? "forwardedMessage" : "message";
        List<Object> body = new ArrayList<>();
        for (Model.Elem e : m.getElemsList()) {
            body.add(elem(e));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        String bodyKey = null;
        for (RestForm.Key k : RestForm.FORMS.get(form)) {
            if (k.value().equals("body")) {
                out.put(k.name(), body);
                bodyKey = k.name();
            } else if (k.value().equals("object")) {
                Map<String, Object> push = m.hasOfflinePushInfo() ? push(m.getOfflinePushInfo()) : Map.of();
                if (!push.isEmpty()) {
                    out.put(k.name(), push);
                }
            } else {
                FieldDescriptor field = Model.Message.getDescriptor().findFieldByName(k.field());
                if (k.presence().equals("required") || isSet(m, field)) {
                    out.put(k.name(), scalar(k, m, field));
                }
            }
        }
        if (bare && out.size() == 1 && out.containsKey(bodyKey)) {
            return body;
        }
        return out;
    }

    private static Object elem(Model.Elem e) {
        FieldDescriptor kind = e.getOneofFieldDescriptor(Model.Elem.getDescriptor().getOneofs().get(0));
        RestForm.ElemType type = RestForm.ELEM_OF_KIND.get(kind.getName());
        Message content = (Message) e.getField(kind);
        Map<String, Object> written = new LinkedHashMap<>();
        if (type.form().equals("relay")) {
            Model.MergerElem merger = (Model.MergerElem) content;
            List<Object> messages = new ArrayList<>();
            for (Model.Message m : merger.getMessagesList()) {
                messages.add(message(m, true, false));
            }
            written.put(RestForm.keyOfField("relay", "msg_num").name(),
                    merger.getMsgNum() != 0 ? Integer.toUnsignedLong(merger.getMsgNum()) : (long) messages.size());
            written.put(RestForm.keyOfField("relay", "abstracts").name(), new ArrayList<Object>(merger.getAbstractsList()));
            boolean byKey = !merger.getJsonMsgKey().isEmpty();
            written.put(RestForm.keyOfField("relay", "messages").name(), byKey ? null : messages);
            written.put(RestForm.keyOfField("relay", "json_msg_key").name(), byKey ? merger.getJsonMsgKey() : null);
        } else if (type.form().equals("image")) {
            RestForm.Key levels = RestForm.keyOfField("image", "levels");
            List<Object> out = new ArrayList<>();
            for (Model.ImageLevel level : ((Model.ImageElem) content).getLevelsList()) {
                out.add(table(levels.form(), level, Map.of()));
            }
            written.put(levels.name(), out);
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put(RestForm.ELEMENT_KEYS.get(0), type.msgType());
        out.put(RestForm.ELEMENT_KEYS.get(1), table(type.form(), content, written));
        return out;
    }

    // -- canonical text -----------------------------------------------------------------------------------

    /** The canonical compact text (docs/spec/rest.md, "Export"). */
    static String dump(Object value) {
        StringBuilder out = new StringBuilder();
        dump(value, out);
        return out.toString();
    }

    private static void dump(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                string((String) entry.getKey(), out);
                out.append(':');
                dump(entry.getValue(), out);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                dump(list.get(i), out);
            }
            out.append(']');
        } else if (value instanceof String s) {
            string(s, out);
        } else if (value instanceof Double d) {
            out.append(jsNumber(d));
        } else {
            out.append(((Number) value).longValue());
        }
    }

    private static void string(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** JavaScript's Number::toString of a finite double: the shortest decimal that reads back as it. */
    static String jsNumber(double x) {
        if (x == 0) {
            return Double.doubleToRawLongBits(x) < 0 ? "-0" : "0";
        }
        String sign = x < 0 ? "-" : "";
        BigDecimal exact = new BigDecimal(Math.abs(x));
        BigDecimal shortest = exact;
        for (int precision = 1; precision <= 17; precision++) {
            BigDecimal candidate = exact.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (candidate.doubleValue() == Math.abs(x)) {
                shortest = candidate;
                break;
            }
        }
        shortest = shortest.stripTrailingZeros();
        String digits = shortest.unscaledValue().toString();
        int k = digits.length();
        int n = k - shortest.scale();
        String s;
        if (k <= n && n <= 21) {
            s = digits + "0".repeat(n - k);
        } else if (0 < n && n <= 21) {
            s = digits.substring(0, n) + "." + digits.substring(n);
        } else if (-6 < n && n <= 0) {
            s = "0." + "0".repeat(-n) + digits;
        } else {
            int e = n - 1;
            s = (k == 1 ? digits : digits.charAt(0) + "." + digits.substring(1)) + "e" + (e >= 0 ? "+" : "-")
                    + Math.abs(e);
        }
        return sign + s;
    }
}
